/*
 * Copyright 2026 the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.offheap.accuracy.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.Version;

/**
 * Apache Lucene indexing a generated corpus into an {@link MMapDirectory} and searching it: documents of
 * words drawn from a skewed vocabulary, stored and indexed, then term and boolean queries whose hits' stored
 * fields are read, so that postings, term dictionaries and stored fields are mapped and partly resident.
 * Compiled against Lucene 9 (which runs on JDK 17); on JDK 21+ the script runs it with Lucene 10 (which
 * needs 21), whose MMapDirectory maps through the FFM API rather than MappedByteBuffers.
 *
 * <p>Arguments: {@code dir=/tmp/... docs=400000 words=60 vocabulary=50000 queries=20000}.
 */
public final class LuceneMmap {
    private LuceneMmap() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(Workload.text(args, "dir", "/tmp/inspect-accuracy-lucene"));
        int docs = (int) Workload.arg(args, "docs", 400_000);
        int words = (int) Workload.arg(args, "words", 60);
        int vocabulary = (int) Workload.arg(args, "vocabulary", 50_000);
        int queries = (int) Workload.arg(args, "queries", 20_000);
        H2Cache.delete(dir);
        Files.createDirectories(dir);
        String[] vocab = new String[vocabulary];
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < vocabulary; i++) {
            StringBuilder w = new StringBuilder();
            int length = 3 + random.nextInt(8);
            for (int j = 0; j < length; j++) {
                w.append((char) ('a' + random.nextInt(26)));
            }
            vocab[i] = w.toString();
        }
        long start = System.nanoTime();
        try (MMapDirectory directory = new MMapDirectory(dir)) {
            IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer()).setRAMBufferSizeMB(48);
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                StringBuilder text = new StringBuilder();
                for (int d = 0; d < docs; d++) {
                    text.setLength(0);
                    for (int w = 0; w < words; w++) {
                        text.append(vocab[skewed(random, vocabulary)]).append(' ');
                    }
                    Document doc = new Document();
                    doc.add(new StringField("id", Integer.toString(d), Field.Store.YES));
                    doc.add(new LongPoint("n", d));
                    doc.add(new StoredField("n", d));
                    doc.add(new TextField("body", text.toString(), Field.Store.YES));
                    writer.addDocument(doc);
                }
                writer.forceMerge(4);
            }
            long indexed = System.nanoTime();
            Workload.log("indexed " + docs + " docs in " + (indexed - start) / 1_000_000 + " ms");
            long hits = 0;
            long storedBytes = 0;
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                StoredFields stored = searcher.storedFields();
                for (int q = 0; q < queries; q++) {
                    BooleanQuery.Builder query = new BooleanQuery.Builder();
                    query.add(new TermQuery(new Term("body", vocab[skewed(random, vocabulary)])), BooleanClause.Occur.SHOULD);
                    query.add(new TermQuery(new Term("body", vocab[random.nextInt(vocabulary)])), BooleanClause.Occur.SHOULD);
                    TopDocs top = searcher.search(query.build(), 10);
                    for (ScoreDoc hit : top.scoreDocs) {
                        storedBytes += stored.document(hit.doc).get("body").length();
                        hits++;
                    }
                }
                Workload.log("searched " + queries + " queries in " + (System.nanoTime() - indexed) / 1_000_000
                        + " ms, " + hits + " hits");
                long indexBytes;
                try (Stream<Path> files = Files.list(dir)) {
                    indexBytes = files.mapToLong(p -> p.toFile().length()).sum();
                }
                long totalHits = hits;
                long totalStored = storedBytes;
                Workload.ready("lucene-mmap", () -> {
                    Map<String, Long> f = new LinkedHashMap<>();
                    f.put("luceneMajor", (long) Version.LATEST.major);
                    f.put("docs", (long) docs);
                    f.put("indexBytes", indexBytes);
                    f.put("hits", totalHits);
                    f.put("storedBytesRead", totalStored);
                    return f;
                });
                // the reader stays open (its files stay mapped) while the process holds still
                Workload.hold();
            }
        }
    }

    /** A word index skewed towards the start of the vocabulary (a few frequent words, a long tail). */
    private static int skewed(SplittableRandom random, int vocabulary) {
        double u = random.nextDouble();
        return (int) Math.min(vocabulary - 1, Math.floor(Math.pow(u, 3) * vocabulary));
    }
}
