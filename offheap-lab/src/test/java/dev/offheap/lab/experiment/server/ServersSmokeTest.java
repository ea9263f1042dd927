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

package dev.offheap.lab.experiment.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each server main in a child JVM, as the shootout starts it, answers real requests with the right bytes (the
 * gRPC server under its load client), answers {@code GET /idle} and the admin console's {@code idle} with its
 * RSS, and prints no warning.
 */
class ServersSmokeTest {
    @TempDir
    Path dir;

    private ServerProcess start(Workload workload, String config) throws Exception {
        return ServerProcess.start(java(), classPath(), ServerProcess.jvmOptions("128m", true), dir,
                workload.id() + "-" + config, workload.main(), workload.serverArgs(config));
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> classPath() {
        return Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    }

    @ParameterizedTest
    @ValueSource(strings = {"adaptive", "pooled", "unpooled"})
    void nettyHttpServesTheBodyAndIdles(String allocator) throws Exception {
        try (ServerProcess server = start(Workload.NETTY_HTTP, allocator)) {
            servesTheBodyAndIdles(server, Workload.NETTY_HTTP.size());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"array"})
    void jettyServesTheBodyAndIdles(String pool) throws Exception {
        try (ServerProcess server = start(Workload.JETTY_1M, pool)) {
            servesTheBodyAndIdles(server, Workload.JETTY_1M.size());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"adaptive"})
    void nettyEchoEchoesAndIdles(String allocator) throws Exception {
        try (ServerProcess server = start(Workload.NETTY_ECHO_16K, allocator)) {
            LoadResult load = EchoLoad.run(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 2,
                    Workload.NETTY_ECHO_16K.size(), 300);

            assertThat(load.errors()).isZero();
            assertThat(load.requests()).isPositive();
            assertThat(load.p99Ms()).isPositive();
            assertThat(server.idle()).isPositive();
            assertThat(ServerShootout.warnings(server.stderrLines())).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"offheap", "pooled"})
    void grpcEchoesOnTheGivenAllocatorToItsClientsJvmAndReadsItsHeapAndIdles(String allocator) throws Exception {
        try (ServerProcess server = start(Workload.GRPC, allocator);
                GrpcClientProcess client = GrpcClientProcess.start(java(), classPath(),
                        ServerProcess.jvmOptions("128m", true), dir, "grpc-client", server.port(), 2,
                        Workload.GRPC.size())) {
            long before = server.memory().heapAllocatedBytes();
            LoadResult load = client.run(1);
            AdminConsole.Reading after = server.memory();

            assertThat(load.errors()).isZero();
            assertThat(load.requests()).isPositive();
            assertThat(load.p99Ms()).isPositive();
            assertThat(before).isPositive();
            assertThat(after.heapAllocatedBytes()).isGreaterThan(before);
            if (allocator.equals("pooled")) { // gRPC's own allocator is another PooledByteBufAllocator: ours was used
                assertThat(after.allocatorBytes()).isPositive();
            } else { // idle return may give the slabs back at any time: only that the pool answers
                assertThat(after.allocatorBytes()).isNotNegative();
            }
            assertThat(server.idle()).isPositive();
            assertThat(ServerShootout.warnings(server.stderrLines())).isEmpty();
            assertThat(ServerShootout.warnings(client.stderrLines())).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"offheap", "pooled"})
    void aNettyServerReadsItsMemoryAndItsAllocatorsWithoutATrimCall(String allocator) throws Exception {
        try (ServerProcess server = start(Workload.NETTY_HTTP, allocator)) {
            servesTheBody(server, Workload.NETTY_HTTP.size());

            AdminConsole.Reading read = server.memory();
            AdminConsole.Reading collected = server.idle(false);

            assertThat(read.rssKib()).isPositive();
            assertThat(collected.rssKib()).isPositive();
            assertThat(read.heapAllocatedBytes()).isPositive();
            assertThat(collected.heapAllocatedBytes()).isGreaterThanOrEqualTo(read.heapAllocatedBytes());
            if (allocator.equals("pooled")) { // pooled keeps its chunks whatever happens: the figure is seen
                assertThat(read.allocatorBytes()).isPositive();
                assertThat(collected.allocatorBytes()).isEqualTo(read.allocatorBytes());
            } else { // idle return may give the slabs back at any time: only that the pool answers
                assertThat(read.allocatorBytes()).isNotNegative();
                assertThat(collected.allocatorBytes()).isNotNegative();
            }
            assertThat(ServerShootout.warnings(server.stderrLines())).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"array"})
    void jettyReadsItsPoolsMemory(String pool) throws Exception {
        try (ServerProcess server = start(Workload.JETTY, pool)) {
            servesTheBody(server, Workload.JETTY.size());

            assertThat(server.memory().allocatorBytes()).isNotNegative();
            assertThat(server.idle(false).rssKib()).isPositive();
        }
    }

    private static void servesTheBody(ServerProcess server, int size) throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/")).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.body()).isEqualTo(Body.of(size));
        }
    }

    private static void servesTheBodyAndIdles(ServerProcess server, int size) throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            URI root = URI.create("http://127.0.0.1:" + server.port() + "/");
            for (int i = 0; i < 3; i++) {
                HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(root).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).isEqualTo(Body.of(size));
            }
            HttpResponse<String> idle = client.send(HttpRequest.newBuilder(root.resolve("/idle")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(idle.statusCode()).isEqualTo(200);
            assertThat(idle.body()).matches("rss_kib=[1-9][0-9]*\\n");
        }
        assertThat(server.idle()).isPositive();
        assertThat(server.kib(ProcMemory.PEAK_RSS)).isPositive();
        assertThat(server.gcPauses()).isNotEmpty();
        assertThat(ServerShootout.warnings(server.stderrLines())).isEmpty();
    }
}
