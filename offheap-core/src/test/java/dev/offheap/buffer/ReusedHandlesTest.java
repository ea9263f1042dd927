package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The opt-in fast path, {@code reuseHandles(true)}: one handle per slot. It keeps every contract of a lease
 * but one, which this test pins down so that nobody mistakes it for the default: a stale handle is the next
 * lease of its slot.
 */
class ReusedHandlesTest {

    @Test
    void aLeaseWorksAsInTheDefaultMode() {
        try (BufferPool pool = BufferPool.builder().reuseHandles(true).leakSampling(0).useAfterReleaseSampling(0)
                .build()) {
            for (int size : new int[] {100, 1024, 16 * 1024, 2 << 20}) {
                Buffer b = pool.acquire(size);
                assertThat(b.size()).isEqualTo(size);
                assertThat(b.byteBuffer().order()).isEqualTo(ByteOrder.BIG_ENDIAN);
                assertThat(b.byteBuffer().limit()).isEqualTo(size);
                b.segment().set(ValueLayout.JAVA_BYTE, size - 1, (byte) 5);
                assertThat(b.retain().release()).isFalse();
                assertThat(b.release()).isTrue();
                assertThatThrownBy(b::segment).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining(size + " bytes");
                assertThatThrownBy(b::release).isInstanceOf(IllegalStateException.class);
            }
            assertThat(pool.stats().leases()).isZero();
        }
    }

    @Test
    void theHandleOfASlotIsReusedSoAStaleHandleIsTheNextLease() {
        try (BufferPool pool = BufferPool.builder().reuseHandles(true).leakSampling(0).useAfterReleaseSampling(0)
                .build()) {
            Buffer b1 = pool.acquire(1024);
            b1.byteBuffer().position(100);
            b1.release();
            Buffer b2 = pool.acquire(1024);
            assertThat(b2).as("no allocation: the slot's handle again").isSameAs(b1);
            assertThat(b2.byteBuffer().position()).as("rewound for the new lease").isZero();
            // the hazard the default mode removes, documented at Builder.reuseHandles
            assertThat(b1.release()).isTrue();
            assertThat(b2.refCount()).isZero();
        }
    }

    @Test
    void sampledLeasesStillGetHandlesOfTheirOwn() {
        try (BufferPool pool = BufferPool.builder().reuseHandles(true).leakSampling(1).useAfterReleaseSampling(0)
                .build()) {
            Buffer b1 = pool.acquire(256);
            b1.release();
            Buffer b2 = pool.acquire(256);
            assertThat(b2).isNotSameAs(b1);
            assertThatThrownBy(b1::release).isInstanceOf(IllegalStateException.class);
            b2.release();
        }
    }

    @Test
    void itCannotBeCombinedWithCheckedMode() {
        assertThatThrownBy(() -> BufferPool.builder().reuseHandles(true).checked(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reuseHandles")
                .hasMessageContaining("checked");
    }
}
