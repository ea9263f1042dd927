package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import org.junit.jupiter.api.Test;

/** The server experiment listens on the loopback interface, on a port the system chooses. */
class ServerLoopbackTest {
    @Test
    void bindsAnEphemeralPortOnLoopback() throws Exception {
        try (ServerSocketChannel socket = ServerExperiment.loopback()) {
            InetSocketAddress address = (InetSocketAddress) socket.getLocalAddress();

            assertThat(address.getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
            assertThat(address.getPort()).isPositive();
        }
    }
}
