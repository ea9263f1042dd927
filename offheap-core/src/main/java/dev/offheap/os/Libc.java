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

package dev.offheap.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

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
    static final int PROT_NONE = 0x0;
    static final int MAP_SHARED = 0x01;
    static final int MAP_PRIVATE = 0x02;
    static final int MAP_FIXED = 0x10;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_NORESERVE = 0x4000;
    static final int O_RDONLY = 0x0;
    static final int O_RDWR = 0x2;
    static final int O_NOCTTY = 0x100;
    static final int O_NONBLOCK = 0x800;
    static final int O_CREAT = 0x40;
    static final int O_EXCL = 0x80;
    static final int O_CLOEXEC = 0x80000;
    static final int FALLOC_FL_KEEP_SIZE = 0x1;
    static final int FALLOC_FL_PUNCH_HOLE = 0x2;
    static final int MREMAP_MAYMOVE = 0x1;
    static final int MREMAP_FIXED = 0x2;
    /** {@code _SC_PAGESIZE} in Linux's {@code unistd.h}, on every architecture. */
    private static final int SC_PAGESIZE = 30;
    static final int MADV_DONTNEED = 4;
    static final int MADV_HUGEPAGE = 14;
    static final int ENOSPC = 28;
    static final int ENOENT = 2;
    static final int EAGAIN = 11;
    static final int EEXIST = 17;
    static final int ENOLCK = 37;
    /** Open file description locks (Linux 3.15): owned by the open file, not the process. */
    static final int F_OFD_GETLK = 36;
    static final int F_OFD_SETLK = 37;
    static final short F_RDLCK = 0;
    static final short F_WRLCK = 1;
    static final short F_UNLCK = 2;
    /** {@code struct flock} on Linux x86_64 and aarch64: type, whence (shorts), start, len (off_t), pid. */
    private static final long FLOCK_SIZE = 32;
    static final int EOPNOTSUPP = 95;

    private static final boolean LINUX = detectLinux();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle MMAP = LINUX ? downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG)) : null;
    private static final MethodHandle MUNMAP = LINUX ? downcall("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG)) : null;

    private static final MethodHandle OPEN = LINUX ? downcall("open",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2)) : null;
    private static final MethodHandle CLOSE = LINUX ? downcall("close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT)) : null;
    private static final MethodHandle FCNTL = LINUX ? downcall("fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), Linker.Option.firstVariadicArg(2)) : null;
    private static final MethodHandle FTRUNCATE = LINUX ? downcall("ftruncate",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG)) : null;
    private static final MethodHandle FALLOCATE = LINUX ? downcall("fallocate",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG)) : null;

    private static final MethodHandle MREMAP = LINUX ? downcall("mremap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS),
            Linker.Option.firstVariadicArg(4)) : null;
    private static final MethodHandle MADVISE = LINUX ? downcall("madvise",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT)) : null;

    private Libc() {}

    /**
     * The base page size, {@code sysconf(_SC_PAGESIZE)}: 4 KiB on x86_64, 4, 16 or 64 KiB on aarch64 Linux
     * kernels. 4 KiB where it cannot be asked (another OS, a libc without it).
     */
    static long pageSize() {
        if (!LINUX) {
            return 4096;
        }
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> sysconf = linker.defaultLookup().find("sysconf");
        if (sysconf.isEmpty()) {
            return 4096;
        }
        try {
            long size = (long) linker.downcallHandle(sysconf.get(), FunctionDescriptor.of(JAVA_LONG, JAVA_INT))
                    .invokeExact(SC_PAGESIZE);
            return size > 0 && Long.bitCount(size) == 1 ? size : 4096;
        } catch (Throwable t) {
            return 4096;
        }
    }

    /** Whether the calls behind {@link NativeFile} and {@link AddressRange} all resolved. */
    static boolean filesAvailable() {
        return mmapAvailable() && OPEN != null && CLOSE != null && FTRUNCATE != null
                && FALLOCATE != null && MREMAP != null && MADVISE != null;
    }

    static boolean isLinux() {
        return LINUX;
    }

    static boolean mmapAvailable() {
        return MMAP != null && MUNMAP != null;
    }

    /**
     * Maps {@code length} bytes of zeroed, private, anonymous memory; any refusal is an {@link OutOfMemoryError}
     * whose message starts with {@code what}.
     */
    static MemorySegment mmapAnonymous(long length, String what) {
        return mmap(MemorySegment.NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L,
                what, true);
    }

    static void munmap(MemorySegment address, long length) {
        munmap(address, length, null);
    }

    /**
     * {@code munmap(address, length)}; the failure message names {@code what} was mapped there, or (null) the
     * memory of the owner recorded there.
     */
    static void munmap(MemorySegment address, long length, String what) {
        OwnedMappings.Owner owner = OwnedMappings.ownerOf(address.address());
        OwnedMappings.remove(address.address(), length);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = injected(Faults.Call.MUNMAP, state) ? -1 : (int) MUNMAP.invokeExact(state, address, length);
            if (rc != 0) {
                if (owner != null) {
                    OwnedMappings.add(address.address(), length, owner); // refused: still mapped, still the owner's
                }
                int errno = (int) ERRNO.get(state, 0L);
                String mapped = what != null ? what : owner != null ? owner.describe("memory") : "memory";
                throw new IllegalStateException("munmap of " + length + " bytes of " + mapped + " at 0x"
                        + Long.toHexString(address.address()) + " failed: " + errnoName(errno));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code mmap(address, length, prot, flags, fd, offset)}; the failure message starts with {@code what}.
     * Errors become {@link OutOfMemoryError} for ENOMEM (no memory, or {@code vm.max_map_count} reached),
     * {@link IllegalStateException} otherwise.
     */
    static MemorySegment mmap(MemorySegment address, long length, int prot, int flags, int fd, long offset,
            String what) {
        return mmap(address, length, prot, flags, fd, offset, what, false);
    }

    private static MemorySegment mmap(MemorySegment address, long length, int prot, int flags, int fd, long offset,
            String what, boolean everyErrorIsMemory) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            MemorySegment mapped = injected(Faults.Call.MMAP, state) ? MemorySegment.ofAddress(-1L)
                    : (MemorySegment) MMAP.invokeExact(state, address, length, prot, flags, fd, offset);
            if (mapped.address() == -1L) {
                int errno = (int) ERRNO.get(state, 0L);
                String message = what + ": mmap of " + length + " bytes failed: " + errnoName(errno);
                throw errno == 12 || everyErrorIsMemory ? new OutOfMemoryError(message)
                        : new IllegalStateException(message);
            }
            Faults.mapped(mapped.address(), length);
            return mapped;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code mremap(old, length, length, MREMAP_MAYMOVE | MREMAP_FIXED?, target)}: moves the pages of a
     * mapping to {@code target} (replacing whatever is mapped there), or anywhere if {@code target} is
     * {@code NULL}. Returns the new address.
     */
    static MemorySegment mremap(MemorySegment old, long length, MemorySegment target) {
        int flags = MREMAP_MAYMOVE | (target.equals(MemorySegment.NULL) ? 0 : MREMAP_FIXED);
        OwnedMappings.Owner owner = OwnedMappings.ownerOf(old.address());
        OwnedMappings.remove(old.address(), length);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            MemorySegment moved = injected(Faults.Call.MREMAP, state) ? MemorySegment.ofAddress(-1L)
                    : (MemorySegment) MREMAP.invokeExact(state, old, length, length, flags, target);
            if (moved.address() == -1L) {
                if (owner != null) {
                    OwnedMappings.add(old.address(), length, owner); // refused: the block is still where it was
                }
                int errno = errno(state);
                String message = "mremap of " + length + " bytes of " + (owner == null ? "memory"
                        : owner.describe("memory")) + " failed: " + errnoName(errno);
                throw errno == 12 ? new OutOfMemoryError(message) : new IllegalStateException(message);
            }
            if (owner != null && OwnedMappings.ownerOf(moved.address()) == null) {
                OwnedMappings.add(moved.address(), length, owner);
            }
            Faults.mapped(moved.address(), length);
            return moved;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code madvise(address, length, advice)}; returns 0 or the errno. */
    static int madvise(MemorySegment address, long length, int advice) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = injected(Faults.Call.MADVISE, state) ? -1
                    : (int) MADVISE.invokeExact(state, address, length, advice);
            return rc == 0 ? 0 : errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code open(path, O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, mode)}: a new file that did not exist. */
    static int createExclusive(String path, int mode) throws java.io.IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(path), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
                    mode);
            if (fd < 0) {
                throw new java.io.IOException("cannot create " + path + ": " + errnoName(errno(state)));
            }
            return fd;
        } catch (java.io.IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code open(path, O_RDWR|O_CLOEXEC)}. */
    static int openReadWrite(String path) throws java.io.IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(path), O_RDWR | O_CLOEXEC, 0);
            if (fd < 0) {
                throw new java.io.IOException("cannot open " + path + ": " + errnoName(errno(state)));
            }
            return fd;
        } catch (java.io.IOException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Whether {@link #open} and {@link #lockWholeFile} resolved. */
    static boolean locksAvailable() {
        return LINUX && OPEN != null && CLOSE != null && FCNTL != null;
    }

    /** {@code open(path, flags, mode)}: the new descriptor, or minus the errno. */
    static int open(String path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(path), flags, mode);
            return fd >= 0 ? fd : -errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code fcntl(fd, F_OFD_SETLK, ...)} over the whole file, also past its end: takes (or changes to) a lock
     * of {@code type} without waiting. Returns 0, or the errno: EAGAIN or EACCES if another open file holds a
     * lock that conflicts.
     */
    static int lockWholeFile(int fd, short type) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            MemorySegment lock = flock(arena, type);
            int rc = (int) FCNTL.invokeExact(state, fd, F_OFD_SETLK, lock);
            return rc == 0 ? 0 : errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code fcntl(fd, F_OFD_GETLK, ...)} over the whole file: the type of a lock that another open file holds
     * and that conflicts with one of {@code type} ({@link #F_RDLCK} or {@link #F_WRLCK}), {@link #F_UNLCK} if
     * none does now, or minus the errno.
     */
    static int conflictingLock(int fd, short type) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            MemorySegment lock = flock(arena, type);
            int rc = (int) FCNTL.invokeExact(state, fd, F_OFD_GETLK, lock);
            return rc == 0 ? lock.get(JAVA_SHORT, 0) : -errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A {@code struct flock} of {@code type} over the whole file; {@code l_pid} 0 as OFD locks need. */
    private static MemorySegment flock(Arena arena, short type) {
        MemorySegment lock = arena.allocate(FLOCK_SIZE, 8); // zeroed: whence SEEK_SET, start 0, len 0 (to EOF)
        lock.set(JAVA_SHORT, 0, type);
        return lock;
    }

    static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = (int) CLOSE.invokeExact(state, fd);
            if (rc != 0) {
                throw new IllegalStateException("close(" + fd + ") failed: " + errnoName(errno(state)));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code ftruncate(fd, length)}; the failure message names {@code what}, the file. */
    static void ftruncate(int fd, long length, String what) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = injected(Faults.Call.FTRUNCATE, state) ? -1 : (int) FTRUNCATE.invokeExact(state, fd, length);
            if (rc != 0) {
                throw new IllegalStateException("ftruncate of " + what + " to " + length + " bytes failed: "
                        + errnoName(errno(state)));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code fallocate(fd, mode, offset, length)}; returns 0 or the errno. */
    static int fallocate(int fd, int mode, long offset, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int rc = injected(Faults.Call.FALLOCATE, state) ? -1
                    : (int) FALLOCATE.invokeExact(state, fd, mode, offset, length);
            return rc == 0 ? 0 : errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Whether the fault seam fails this call ({@link Faults}): then {@code state} holds its errno, as if the
     * kernel had refused it, and the caller takes its error path.
     */
    private static boolean injected(Faults.Call call, MemorySegment state) {
        int errno = Faults.errnoFor(call);
        if (errno == 0) {
            return false;
        }
        ERRNO.set(state, 0L, errno);
        return true;
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    static String errnoName(int errno) {
        return switch (errno) {
            case 1 -> "EPERM";
            case 2 -> "ENOENT";
            case 5 -> "EIO";
            case 11 -> "EAGAIN";
            case 17 -> "EEXIST";
            case 37 -> "ENOLCK";
            case 9 -> "EBADF";
            case 12 -> "ENOMEM (out of memory, or vm.max_map_count reached)";
            case 13 -> "EACCES";
            case 22 -> "EINVAL";
            case 27 -> "EFBIG";
            case 28 -> "ENOSPC (no space left on device)";
            case 95 -> "EOPNOTSUPP";
            case 122 -> "EDQUOT (disk quota exceeded)";
            default -> "errno " + errno;
        } + " [" + errno + "]";
    }

    @SuppressWarnings("restricted")
    private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> symbol = linker.defaultLookup().find(name);
        Linker.Option[] all = java.util.Arrays.copyOf(options, options.length + 1);
        all[options.length] = Linker.Option.captureCallState("errno");
        return symbol.map(s -> linker.downcallHandle(s, descriptor, all)).orElse(null);
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
