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

import java.util.Arrays;
import java.util.List;

/** A server and what drives it, measured once per configuration (allocator or pool) in every round. */
public enum Workload {
    /** Netty HTTP/1.1, 16 KiB responses, driven by wrk. */
    NETTY_HTTP("netty-http", "Netty HTTP/1.1, 16 KiB responses (wrk)", NettyHttpServer.class, "allocator",
            NettyAllocators.NAMES, 16 * 1024, Load.WRK),
    /** Netty HTTP/1.1, 1 MiB responses, driven by wrk. */
    NETTY_HTTP_1M("netty-http-1m", "Netty HTTP/1.1, 1 MiB responses (wrk)", NettyHttpServer.class, "allocator",
            NettyAllocators.NAMES, 1 << 20, Load.WRK),
    /** Netty TCP echo, 1 KiB messages, driven by {@link EchoLoad}. */
    NETTY_ECHO("netty-echo", "Netty TCP echo, 1 KiB messages (Java closed-loop client)", NettyEchoServer.class,
            "allocator", NettyAllocators.NAMES, 1024, Load.ECHO_CLIENT),
    /** Netty TCP echo, 16 KiB messages, driven by {@link EchoLoad}. */
    NETTY_ECHO_16K("netty-echo-16k", "Netty TCP echo, 16 KiB messages (Java closed-loop client)",
            NettyEchoServer.class, "allocator", NettyAllocators.NAMES, 16 * 1024, Load.ECHO_CLIENT),
    /** gRPC unary echo on grpc-netty, 4 KiB messages, driven by {@link GrpcLoad}. */
    GRPC("grpc", "gRPC unary echo on grpc-netty, 4 KiB messages (Java closed-loop client)", GrpcEchoServer.class,
            "allocator", NettyAllocators.NAMES, 4 * 1024, Load.GRPC_CLIENT),
    /** Jetty 12.1, 16 KiB responses, driven by wrk. */
    JETTY("jetty", "Jetty 12.1, 16 KiB responses (wrk)", JettyHttpServer.class, "pool", JettyHttpServer.POOLS,
            16 * 1024, Load.WRK),
    /** Jetty 12.1, 1 MiB responses (above what Jetty's default pool pools), driven by wrk. */
    JETTY_1M("jetty-1m", "Jetty 12.1, 1 MiB responses (wrk)", JettyHttpServer.class, "pool", JettyHttpServer.POOLS,
            1 << 20, Load.WRK);

    /** What drives a workload's server. */
    public enum Load {
        /** wrk, over HTTP/1.1 ({@link ScriptedWrk}). */
        WRK,
        /** The TCP echo client, {@link EchoLoad}. */
        ECHO_CLIENT,
        /** The gRPC client, {@link GrpcLoad}. */
        GRPC_CLIENT
    }

    /** The workloads of a full run. */
    public static final List<Workload> FULL = List.of(NETTY_HTTP, NETTY_HTTP_1M, NETTY_ECHO, GRPC, JETTY, JETTY_1M);

    private final String id;
    private final String title;
    private final Class<?> main;
    private final String option;
    private final List<String> configs;
    private final int size;
    private final Load load;

    Workload(String id, String title, Class<?> main, String option, List<String> configs, int size, Load load) {
        this.id = id;
        this.title = title;
        this.main = main;
        this.option = option;
        this.configs = configs;
        this.size = size;
        this.load = load;
    }

    /** The name of {@code --only}, e.g. {@code netty-http}. */
    public String id() {
        return id;
    }

    /** The title of its table. */
    public String title() {
        return title;
    }

    /** The server's main class. */
    public Class<?> main() {
        return main;
    }

    /** The configurations, offheap's first. */
    public List<String> configs() {
        return configs;
    }

    /** Response body, echo message or gRPC message size in bytes. */
    public int size() {
        return size;
    }

    /** What drives its server. */
    public Load load() {
        return load;
    }

    /** Driven by wrk (HTTP) rather than a client of the lab's own. */
    public boolean http() {
        return load == Load.WRK;
    }

    /** The server's arguments for {@code config}. */
    public List<String> serverArgs(String config) {
        return http() ? List.of("--" + option, config, "--body", Integer.toString(size))
                : List.of("--" + option, config);
    }

    /** The workload named {@code id}. */
    public static Workload byId(String id) {
        return Arrays.stream(values()).filter(w -> w.id.equals(id)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("unknown workload " + id + ": expected one of "
                        + Arrays.stream(values()).map(Workload::id).toList()));
    }
}
