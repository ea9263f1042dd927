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

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A JNI library that mallocs in native code: zstd-jni's compression and decompression contexts. zstd
 * allocates each context's workspace (window, hash and chain tables) with malloc in libzstd-jni; the
 * large ones exceed glibc's mmap threshold and become chunks mapped on their own, the small ones live in
 * the arenas. The contexts are kept (never closed) after compressing and decompressing a buffer, so their
 * workspaces are resident.
 *
 * <p>Arguments: {@code contexts=8 input=8388608 levels=3,9,12,15,19}: that many compression contexts
 * (levels taken in turn), each compressing {@code input} bytes, and as many decompression contexts.
 */
public final class ZstdNative {
    private static final List<Object> KEPT = new ArrayList<>();

    private ZstdNative() {}

    public static void main(String[] args) throws Exception {
        int contexts = (int) Workload.arg(args, "contexts", 8);
        int input = (int) Workload.arg(args, "input", 8 << 20);
        String[] levels = Workload.text(args, "levels", "3,9,12,15,19").split(",");
        SplittableRandom random = new SplittableRandom(1);
        byte[] data = new byte[input];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ('a' + (random.nextInt(26) * random.nextInt(26)) % 26);
        }
        long compressedTotal = 0;
        for (int c = 0; c < contexts; c++) {
            int level = Integer.parseInt(levels[c % levels.length].trim());
            ZstdCompressCtx cctx = new ZstdCompressCtx();
            cctx.setLevel(level);
            cctx.setChecksum(true);
            byte[] compressed = cctx.compress(data);
            compressedTotal += compressed.length;
            ZstdDecompressCtx dctx = new ZstdDecompressCtx();
            byte[] restored = dctx.decompress(compressed, data.length);
            if (restored.length != data.length) {
                throw new IllegalStateException("zstd round trip lost bytes");
            }
            KEPT.add(cctx);
            KEPT.add(dctx);
            Workload.log("context " + c + " level " + level + ": " + data.length + " -> " + compressed.length);
        }
        long total = compressedTotal;
        Workload.ready("zstd-native", () -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("contexts", (long) contexts);
            f.put("inputBytes", (long) input);
            f.put("compressedBytes", total);
            return f;
        });
        Workload.hold();
    }
}
