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

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.concurrent.TimeUnit;

/**
 * The event loops of a Netty server of the shootout, on the NIO transport: one loop that accepts and Netty's
 * default count of loops that serve the connections (two per core); closing shuts both down.
 */
record NettyLoops(EventLoopGroup boss, EventLoopGroup workers) implements AutoCloseable {
    /** New loops. */
    static NettyLoops nio() {
        return new NettyLoops(new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory()),
                new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory()));
    }

    /** Shuts the workers down, then the boss, each within 2 s. */
    @Override
    public void close() throws InterruptedException {
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
    }
}
