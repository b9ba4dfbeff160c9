#!/usr/bin/env bash
# loadratio.sh: shows that `brisk load` is not the bottleneck of a load
# test: it runs wrk and `brisk load` alternately against the same server,
# with the same connections and duration, and prints brisk load's req/s as
# a ratio of wrk's (target: >= 0.9).
#
# Usage: bench/loadratio.sh [-s brisk|serve|fasthttp|nethttp] [-c CONNS] [-d SECONDS] [-r ROUNDS] [-p DEPTH]
#   -s  server: "serve" is `brisk serve` (GET /plaintext); the others are the
#       plaintext servers of bench/servers (default: serve)
#   -c  connections (default 50)    -d  seconds per run (default 5)
#   -r  rounds (default 3)          -p  pipelining depth (default 1)
# On a machine with 2+ cores the server is pinned to core 0 and the load
# tool to core 1 (taskset); wrk runs one thread, brisk load one core.
set -euo pipefail

server=serve conns=50 secs=5 rounds=3 depth=1
while getopts "s:c:d:r:p:" o; do
	case $o in
	s) server=$OPTARG ;; c) conns=$OPTARG ;; d) secs=$OPTARG ;;
	r) rounds=$OPTARG ;; p) depth=$OPTARG ;; *) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

command -v wrk >/dev/null || { echo "installing wrk" >&2; apt-get install -y wrk >/dev/null; }
srvpin=() loadpin=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	srvpin=(taskset -c 0) loadpin=(taskset -c 1)
fi

port=$((20000 + RANDOM % 20000))
addr=127.0.0.1:$port
(cd "$root" && go build -o "$tmp/brisk" ./cmd/brisk)
case $server in
serve)
	"${srvpin[@]}" "$tmp/brisk" serve -addr "$addr" >/dev/null 2>&1 &
	url=http://$addr/plaintext ;;
brisk | fasthttp | nethttp)
	(cd "$root/bench" && go build -o "$tmp/server" "./servers/$server")
	"${srvpin[@]}" "$tmp/server" -addr "$addr" >/dev/null 2>&1 &
	url=http://$addr/ ;;
*) echo "unknown server $server" >&2; exit 2 ;;
esac
pids+=($!)
for _ in $(seq 50); do
	curl -fs "$url" >/dev/null 2>&1 && break || sleep 0.1
done

wrkargs=(-t1 -c"$conns" -d"${secs}s" --timeout 10s)
script=()
[ "$depth" -gt 1 ] && wrkargs+=(-s "$root/bench/pipeline.lua") && script=(-- "$depth")

run_wrk() {
	timeout $((secs + 20)) "${loadpin[@]}" wrk "${wrkargs[@]}" "$url" "${script[@]}" | awk '/^Requests\/sec:/ {print $2}'
}
run_brisk() {
	timeout $((secs + 20)) "${loadpin[@]}" "$tmp/brisk" load -c "$conns" -p "$depth" -d "${secs}s" -json "$url" |
		sed -n 's/.*"requests_per_second": \([0-9.]*\).*/\1/p'
}

echo "server=$server url=$url connections=$conns depth=$depth ${secs}s x $rounds rounds"
printf "%-6s %14s %14s %7s\n" round wrk "brisk load" ratio
wsum=0 bsum=0
for r in $(seq "$rounds"); do
	w=$(run_wrk); b=$(run_brisk)
	printf "%-6s %14.0f %14.0f %7.3f\n" "$r" "$w" "$b" "$(echo "$b / $w" | bc -l)"
	wsum=$(echo "$wsum + $w" | bc -l); bsum=$(echo "$bsum + $b" | bc -l)
done
printf "%-6s %14.0f %14.0f %7.3f\n" mean "$(echo "$wsum / $rounds" | bc -l)" "$(echo "$bsum / $rounds" | bc -l)" "$(echo "$bsum / $wsum" | bc -l)"
