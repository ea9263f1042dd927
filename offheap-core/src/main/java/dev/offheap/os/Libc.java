package dev.offheap.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * The few libc calls offheap makes, through the FFM Linker. Linux only: callers check {@link #isLinux()}
 * and use a portable path elsewhere. Constants are the Linux generic values, the same on x86_64 and
 * aarch64 (the only architectures {@link #isLinux()} accepts).
 */
final class Libc {
    static final int PROT_READ = 0x1;
    static final int PROT_WRITE = 0x2;
    static final int MAP_PRIVATE = 0x02;
    static final int MAP_ANONYMOUS = 0x20;

    private static final boolean LINUX = detectLinux();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle MMAP = LINUX ? downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG)) : null;
    private static final MethodHandle MUNMAP = LINUX ? downcall("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG)) : null;

    private Libc() {}

    static boolean isLinux() {
        return LINUX;
    }

    static boolean mmapAvailable() {
        return MMAP != null && MUNMAP != null;
    }

    /** Maps {@code length} bytes of zeroed, private, anonymous memory. */
    static MemorySegment mmapAnonymous(long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            MemorySegment address = (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, length,
                    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
            if (address.address() == -1L) {
                int errno = (int) ERRNO.get(state, 0L);
                throw new OutOfMemoryError("mmap of " + length + " bytes failed: " + errnoName(errno));
            }
            return address;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void munmap(MemorySegment address, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) MUNMAP.invokeExact(state, address, length);
            if (rc != 0) {
                int errno = (int) ERRNO.get(state, 0L);
                throw new IllegalStateException("munmap of " + length + " bytes at 0x"
                        + Long.toHexString(address.address()) + " failed: " + errnoName(errno));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String errnoName(int errno) {
        return switch (errno) {
            case 1 -> "EPERM";
            case 9 -> "EBADF";
            case 12 -> "ENOMEM (out of memory, or vm.max_map_count reached)";
            case 13 -> "EACCES";
            case 22 -> "EINVAL";
            case 28 -> "ENOSPC";
            default -> "errno " + errno;
        } + " [" + errno + "]";
    }

    @SuppressWarnings("restricted")
    private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> symbol = linker.defaultLookup().find(name);
        return symbol.map(s -> linker.downcallHandle(s, descriptor, Linker.Option.captureCallState("errno")))
                .orElse(null);
    }

    private static boolean detectLinux() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        return os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"));
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
