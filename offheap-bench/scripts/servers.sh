#!/usr/bin/env bash
# Real Netty, gRPC and Jetty servers under load, side by side in one run (ServerShootout in offheap-lab):
# offheap's allocator against Netty's own as shipped on JDK 25 (adaptive, pooled, unpooled) on an HTTP/1.1
# server (16 KiB and 1 MiB responses), a TCP echo server (1 KiB messages) and a gRPC server on grpc-netty
# 1.85.1 (unary echo of 4 KiB messages, the allocator set with NettyServerBuilder's withChildOption, driven by
# a Java client in a JVM of its own keeping --connections calls in flight on one connection), and offheap's
# pool against Jetty's ArrayByteBufferPool on a Jetty 12.1 server (16 KiB and 1 MiB responses). Every
# configuration runs in a fresh server JVM with the same flags; figures: req/s, p50/p99/p99.9, GC pauses, heap
# B/request (the Java heap the server JVM allocated in the measured run, read inside it, over the requests the
# client completed), peak RSS, RSS after idle.
#
# Needs wrk (apt-get install wrk) and a JDK 25. Takes about 20 minutes with the full settings (6 workloads,
# 20 configurations, 2 rounds, about 30 s per configuration: 5 s warm-up, 15 s measured, 5 s idle, 2 s
# settle); run it on a quiet machine. A smoke run: servers.sh OUT --seconds 5 --rounds 1 (about 6 minutes).
#
# Usage: offheap-bench/scripts/servers.sh [out-dir] [ServerShootout options: --seconds 15 --warmup 5
#        --rounds 2 --connections 64 --threads 2 --idle 5 --sample 5 --trim true --settle 2 --heap 512m
#        --native-access true --only netty-http,netty-http-1m,netty-echo,netty-echo-16k,grpc,jetty,jetty-1m]
# While a server idles after its load, its RSS and its allocator's direct memory (offheap: the pool's
# bytesFromOs; Netty: metric().usedDirectMemory(); Jetty: ArrayByteBufferPool.getDirectMemory()) are read every
# --sample seconds, nothing else done; then it trims and collects, or with --trim false only runs System.gc(),
# to measure the memory that goes back with no trim call. A burst-then-idle run (issue 27):
#     servers.sh OUT --only netty-http,netty-echo,jetty --seconds 60 --idle 60 --trim false
# --native-access false runs every server without --enable-native-access=ALL-UNNAMED: Netty then frees
# direct memory through one Arena.ofShared() per buffer (CleanerJava25) instead of malloc/free downcalls
# (CleanerJava24Linker), as for an application whose Netty jars are not granted native access.
# Writes out-dir/servers.md (the tables, for BENCHMARKS.md), out-dir/servers.json (raw numbers) and
# out-dir/logs/ (each server's gc log and stderr); out-dir defaults to offheap-bench/target/servers-<time>.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-$ROOT/offheap-bench/target/servers-$(date -u +%Y%m%dT%H%M%SZ)}"
shift || true
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}"

if ! command -v wrk >/dev/null 2>&1; then
    echo "servers.sh: needs wrk on the PATH (apt-get install wrk)" >&2
    exit 2
fi

(cd "$ROOT" && ./mvnw -q -pl offheap-lab -am package -DskipTests)
mkdir -p "$OUT"
{
    echo "# $(date -u +%FT%TZ), $(uname -srm), $(nproc) cores, wrk: $(wrk --version 2>&1 | head -1)"
    echo "# uptime before: $(uptime)"
} >&2
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$ROOT/offheap-lab/target/offheap-lab.jar" \
    dev.offheap.lab.experiment.server.ServerShootout --out "$OUT" "$@"
echo "# uptime after: $(uptime)" >&2
echo "servers.sh: tables in $OUT/servers.md, raw numbers in $OUT/servers.json" >&2
