package dev.offheap.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.buffer.*;
import dev.offheap.store.*;
import java.nio.*;
import org.junit.jupiter.api.Test;

/** offheap's packages imported whole beside java.nio's: no simple name may be ambiguous (it used to be Buffer). */
class WildcardImportsTest {

    @Test
    void javaNioBufferStaysReachableBesideEveryOffheapPackage() {
        Buffer nio = ByteBuffer.allocate(8);
        try (BufferPool pool = BufferPool.builder().build(); BufferLease lease = pool.acquire(8)) {
            assertThat(nio.capacity()).isEqualTo(lease.size());
        }
        assertThat(ElementType.DOUBLE).isNotNull();
    }
}
