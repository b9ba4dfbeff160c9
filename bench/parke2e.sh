#!/usr/bin/env bash
# parke2e.sh: end-to-end plaintext req/s and p99 latency of brisk with
# Server.ParkIdle off, on (ParkIdleAfter 2 s) and now (parked at once).
#
# The server (bench/servers/brisk) is pinned to core 0 and wrk to core 1;
# modes: 50 connections, 50 pipelined x16, 1000 connections. Servers are
# interleaved per round. Prints "mode server round req/s p99".
#
# Usage: bench/parke2e.sh [-d SECONDS] [-r ROUNDS]   defaults: 3, 2
set -euo pipefail
secs=3 rounds=2
while getopts "d:r:" o; do
	case $o in d) secs=$OPTARG ;; r) rounds=$OPTARG ;; *) sed -n '2,12p' "$0"; exit 2 ;; esac
done
bench=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
declare -A pid port flags=([off]="" [on]="-park" [now]="-park -park-after=-1s")
cleanup() { for s in "${!pid[@]}"; do kill "${pid[$s]}" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
(cd "$bench" && go build -o "$tmp/brisk" ./servers/brisk)
ulimit -n "$(ulimit -Hn)"
base=$((20000 + RANDOM % 20000)) i=0
for s in off on now; do
	port[$s]=$((base + i)); i=$((i + 1))
	# shellcheck disable=SC2086
	taskset -c 0 "$tmp/brisk" -addr "127.0.0.1:${port[$s]}" ${flags[$s]} &
	pid[$s]=$!
done
for s in off on now; do
	for _ in $(seq 50); do curl -fs "http://127.0.0.1:${port[$s]}/" >/dev/null 2>&1 && break || sleep 0.1; done
done
for round in $(seq "$rounds"); do
	for mode in c50 pipelined c1000; do
		for s in off on now; do
			args=(-t1 -c50 -d"${secs}s" --latency --timeout 10s)
			script=()
			[ $mode = c1000 ] && args[1]=-c1000
			[ $mode = pipelined ] && args+=(-s "$bench/pipeline.lua") && script=(-- 16)
			res=$(timeout $((secs + 30)) taskset -c 1 wrk "${args[@]}" "http://127.0.0.1:${port[$s]}/" "${script[@]}")
			rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$res")
			p99=$(awk '$1 == "99%" {print $2}' <<<"$res")
			printf "%-9s %-4s round %d: %10.0f req/s  p99 %s\n" $mode $s "$round" "$rps" "$p99"
		done
	done
done
