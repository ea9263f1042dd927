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

package dev.offheap.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.buffer.BufferPool;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.jmx.MBeanContainer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A real Jetty server whose buffers are offheap leases: bodies arrive whole and every lease comes back. */
class JettyServerTest {

    /**
     * Checked: every view dies at release, so a buffer Jetty itself touched after releasing it would fail the
     * request instead of reading memory lent again.
     */
    @ParameterizedTest(name = "checked pool: {0}")
    @ValueSource(booleans = {false, true})
    void aServerOnOffheapBuffersServesBodiesAndGivesEveryLeaseBack(boolean checked) throws Exception {
        try (BufferPool pool = BufferPool.builder().name("jetty-server-test").checked(checked).jmx(false).build()) {
            OffheapByteBufferPool buffers = new OffheapByteBufferPool(pool);
            Server server = new Server(new QueuedThreadPool(), null, buffers);
            ServerConnector connector = new ServerConnector(server);
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            server.addConnector(connector);
            server.setHandler(new PatternHandler());
            MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
            MBeanContainer jmx = new MBeanContainer(mbeans);
            server.addBean(jmx);
            server.start();
            try (HttpClient client = HttpClient.newHttpClient()) {
                URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
                for (int round = 0; round < 3; round++) {
                    for (int size : new int[] {16 * 1024, 1 << 20}) {
                        HttpResponse<byte[]> response = client.send(
                                HttpRequest.newBuilder(base.resolve(Integer.toString(size))).build(),
                                HttpResponse.BodyHandlers.ofByteArray());
                        assertThat(response.statusCode()).isEqualTo(200);
                        assertThat(response.body()).as("%d bytes, round %d", size, round)
                                .isEqualTo(OffheapByteBufferPoolTest.pattern(size, size));
                    }
                }
                byte[] upload = OffheapByteBufferPoolTest.pattern((1 << 20) + 100, 3);
                HttpResponse<byte[]> echoed = client.send(HttpRequest.newBuilder(base.resolve("echo"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(upload)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertThat(echoed.statusCode()).isEqualTo(200);
                assertThat(echoed.body()).isEqualTo(upload);

                HttpResponse<String> text = client.send(HttpRequest.newBuilder(base.resolve("text")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(text.body()).isEqualTo("served from offheap");

                // the handler's 6 bodies, and the connection's own direct buffers for requests and headers
                assertThat(pool.stats().acquires()).isGreaterThan(6);
                assertThat(server.dump()).contains("OffheapByteBufferPool").contains("pool jetty-server-test");
                Set<ObjectName> names =
                        mbeans.queryNames(new ObjectName("dev.offheap.jetty:type=offheapbytebufferpool,*"), null);
                assertThat(names).hasSize(1);
                ObjectName name = names.iterator().next();
                assertThat(mbeans.getAttribute(name, "poolName")).isEqualTo("jetty-server-test");
                assertThat((Long) mbeans.getAttribute(name, "directAcquires")).isGreaterThanOrEqualTo(6);
                assertThat((Long) mbeans.getAttribute(name, "directMemory")).isPositive();
            } finally {
                server.stop();
                jmx.destroy(); // unregisters the MBeans
            }

            assertThat(pool.stats().leases()).isZero();
            long before = pool.stats().bytesFromOs();
            buffers.clear();
            assertThat(pool.stats().bytesFromOs()).isLessThan(before);
        }
    }

    /**
     * Serves {@code /<size>} as that many pattern bytes written from a pool buffer, {@code /text}, and
     * {@code /echo}: the request body gathered in pool buffers by Jetty, written back.
     */
    private static final class PatternHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPath().substring(1);
            if (path.equals("echo")) {
                Content.Source.asRetainableByteBuffer(request, request.getComponents().getByteBufferPool(), true,
                        4 << 20).whenComplete((body, failure) -> {
                            if (failure != null) {
                                callback.failed(failure);
                                return;
                            }
                            body.writeTo(response, true, Callback.from(() -> {
                                body.release();
                                callback.succeeded();
                            }, writeFailure -> {
                                body.release();
                                callback.failed(writeFailure);
                            }));
                        });
                return true;
            }
            if (path.equals("text")) {
                Content.Sink.write(response, true, "served from offheap", callback);
                return true;
            }
            int size = Integer.parseInt(path);
            RetainableByteBuffer.Mutable buffer = request.getComponents().getByteBufferPool().acquire(size, true);
            buffer.append(ByteBuffer.wrap(OffheapByteBufferPoolTest.pattern(size, size)));
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size);
            response.write(true, buffer.getByteBuffer(), Callback.from(() -> {
                buffer.release();
                callback.succeeded();
            }, failure -> {
                buffer.release();
                callback.failed(failure);
            }));
            return true;
        }
    }
}
