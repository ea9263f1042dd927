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

/*
 * A STREAM-style memory bandwidth measurement, written for run-bulk-benchmarks.sh after John D. McCalpin's
 * STREAM (its four kernels, its byte counting, its best-of-N timing), not a copy of it. Results are not
 * "STREAM results" in the benchmark's own sense (those need its exact source and run rules); they are this
 * machine's copy/scale/add/triad bandwidth, measured the same way, as the reference for offheap's figures.
 *
 *   gcc -O3 -march=native -fopenmp -o stream stream.c
 *   OMP_NUM_THREADS=2 ./stream [ELEMENTS (default 33554432 = 2^25)] [TRIALS (default 10)] [HUGE (default 1)]
 *
 * Kernels (q = 3.0), each over three arrays of ELEMENTS doubles, parallel with OpenMP's static schedule:
 *   copy   c[i] = a[i]             16 bytes per element counted (read a, write c)
 *   scale  b[i] = q * c[i]         16
 *   add    c[i] = a[i] + b[i]      24
 *   triad  a[i] = b[i] + q * c[i]  24
 * As in STREAM, the counts leave out the write-allocate reads of the destination (the compiler emits normal
 * stores here, so the hardware moves 24 and 32 bytes per element): offheap's figures are counted the same way,
 * so the ratios compare like with like. Each trial runs the four kernels in order; the first trial is
 * dropped, and a kernel's figure is its best trial (least time), as STREAM reports. The arrays are first
 * touched in parallel with the same schedule, so each thread's pages are its own. At the end the arrays are
 * checked against the values the kernels must have produced.
 *
 * Pages: with HUGE = 1 (the default) each array is aligned to 2 MiB and given madvise(MADV_HUGEPAGE) before it
 * is touched, so that it gets transparent huge pages where they are enabled, even in "madvise" mode: the
 * store's memory chunks and NumPy's large arrays ask for them the same way, and under a hypervisor 4 KiB pages
 * cost STREAM a good part of its bandwidth in TLB misses (nested page walks). HUGE = 0 leaves the arrays on
 * whatever malloc-style memory gets by default. The output line says which (huge=1 or huge=0).
 *
 * Output, one line per kernel (parsed by stream/bulk_table.py):
 *   stream threads=2 kernel=copy huge=1 bytes=536870912 best_s=0.0412 avg_s=0.0420 max_s=0.0431 best_gbs=13.03
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + (double) t.tv_nsec * 1e-9;
}

static double *allocate(long n, int huge) {
    void *p = NULL;
    size_t bytes = (size_t) n * sizeof(double);
    if (posix_memalign(&p, 2 << 20, bytes) != 0) {
        fprintf(stderr, "stream: cannot allocate %ld doubles\n", n);
        exit(2);
    }
    if (huge && madvise(p, (bytes + (2 << 20) - 1) & ~(size_t) ((2 << 20) - 1), MADV_HUGEPAGE) != 0) {
        perror("stream: madvise(MADV_HUGEPAGE)");
    }
    return p;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1L << 25;
    int trials = argc > 2 ? atoi(argv[2]) : 10;
    int huge = argc > 3 ? atoi(argv[3]) : 1;
    if (n < 1 || trials < 2) {
        fprintf(stderr, "usage: stream [ELEMENTS >= 1] [TRIALS >= 2] [HUGE 0 or 1]\n");
        return 2;
    }
    const double q = 3.0;
    double *restrict a = allocate(n, huge);
    double *restrict b = allocate(n, huge);
    double *restrict c = allocate(n, huge);
    int threads = omp_get_max_threads();

#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 2.0 * a[i];
    }

    static const char *names[4] = {"copy", "scale", "add", "triad"};
    const double bytes[4] = {2.0 * sizeof(double) * n, 2.0 * sizeof(double) * n, 3.0 * sizeof(double) * n,
                             3.0 * sizeof(double) * n};
    double best[4] = {INFINITY, INFINITY, INFINITY, INFINITY}, worst[4] = {0}, total[4] = {0};
    for (int k = 0; k < trials; k++) {
        double t[4];
        t[0] = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i];
        t[0] = now() - t[0];
        t[1] = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) b[i] = q * c[i];
        t[1] = now() - t[1];
        t[2] = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
        t[2] = now() - t[2];
        t[3] = now();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) a[i] = b[i] + q * c[i];
        t[3] = now() - t[3];
        if (k == 0) {
            continue; /* the first trial warms up, as in STREAM */
        }
        for (int j = 0; j < 4; j++) {
            best[j] = fmin(best[j], t[j]);
            worst[j] = fmax(worst[j], t[j]);
            total[j] += t[j];
        }
    }

    /* The values every element must hold after `trials` rounds, computed the same way on scalars. */
    double ea = 2.0, eb = 2.0, ec = 0.0;
    for (int k = 0; k < trials; k++) {
        ec = ea;
        eb = q * ec;
        ec = ea + eb;
        ea = eb + q * ec;
    }
    long bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (long i = 0; i < n; i++) {
        bad += fabs(a[i] - ea) > 1e-13 * fabs(ea) || fabs(b[i] - eb) > 1e-13 * fabs(eb)
               || fabs(c[i] - ec) > 1e-13 * fabs(ec);
    }
    if (bad != 0) {
        fprintf(stderr, "stream: %ld elements hold wrong values\n", bad);
        return 1;
    }

    printf("# stream: %ld doubles per array (%.0f MiB each), %d threads, best of %d trials after one warm-up, %s\n",
           n, n * 8.0 / (1 << 20), threads, trials - 1,
           huge ? "madvise(MADV_HUGEPAGE) on the arrays" : "no huge page request");
    for (int j = 0; j < 4; j++) {
        printf("stream threads=%d kernel=%s huge=%d bytes=%.0f best_s=%.6f avg_s=%.6f max_s=%.6f best_gbs=%.3f\n",
               threads, names[j], huge, bytes[j], best[j], total[j] / (trials - 1), worst[j], bytes[j] / best[j] / 1e9);
    }
    free(a);
    free(b);
    free(c);
    return 0;
}
