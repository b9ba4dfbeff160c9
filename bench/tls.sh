#!/usr/bin/env bash
# tls.sh: end-to-end HTTPS and HTTP/2 benchmark of brisk against net/http.
#
# Builds servers/tls (same response: 200, text/plain, "Hello, World!") and
# loads it with h2load (Debian nghttp2-client), the server pinned to core
# 0 and h2load to core 1, the servers interleaved over ROUNDS rounds:
#   h1   HTTPS keep-alive, HTTP/1.1: h2load --h1 -c 50 for SECONDS
#   h2   HTTP/2: h2load -c 50 -m 10 for SECONDS
#   hs   handshakes: h2load --h1 -c HS -n HS (one request per connection;
#        HS is 1000, or the -c value)
# Servers: brisk (HTTP/2 with an http.Handler: x/net/http2's own cost),
# bridge (h2 only: brisk's handler through the net/http adaptor), xnet
# (h2 only: the http.Handler on x/net/http2's Server alone, no brisk:
# brisk against xnet is the hand-over's cost), nethttp.
# For each run it prints req/s and the server's CPU time per request
# (utime+stime from /proc/PID/stat, 10 ms ticks): on a shared machine, and
# with h2load often the bottleneck, the CPU time is the figure to compare.
#
# Usage: bench/tls.sh [-d SECONDS | -n REQUESTS] [-c HS] [-r ROUNDS] [-m MODES]
#   -n bounds the h1 and h2 runs by a request count instead of a duration;
#   -c sets the connections of an hs run; -m lists the modes to run
#   (default "h1 h2 hs"). Defaults: -d 5 -c 1000 -r 3.
set -euo pipefail

secs=5 rounds=3 count= hs=1000 modes="h1 h2 hs"
while getopts "d:n:c:r:m:" o; do
	case $o in
	d) secs=$OPTARG ;; n) count=$OPTARG ;; c) hs=$OPTARG ;; r) rounds=$OPTARG ;; m) modes=$OPTARG ;;
	*) sed -n '2,22p' "$0"; exit 2 ;;
	esac
done
bound=(-D "$secs")
[ -n "$count" ] && bound=(-n "$count")
command -v h2load >/dev/null || { echo "tls.sh needs h2load: apt-get install nghttp2-client" >&2; exit 1; }

bench=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

srvpin=() loadpin=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	srvpin=(taskset -c 0) loadpin=(taskset -c 1)
fi
(cd "$bench" && go build -o "$tmp/srv" ./servers/tls)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	-keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
port=$((20000 + RANDOM % 20000))
url=https://127.0.0.1:$port/

cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
tck=$(getconf CLK_TCK)

# run SERVER MODE: one measurement, printed as a line.
run() {
	local s=$1 mode=$2 args
	case $mode in
	h1) args=(--h1 -c 50 "${bound[@]}") ;;
	h2) args=(-c 50 -m 10 "${bound[@]}") ;;
	hs) args=(--h1 -c "$hs" -n "$hs") ;;
	esac
	"${srvpin[@]}" "$tmp/srv" -s "$s" -addr "127.0.0.1:$port" -cert "$tmp/cert.pem" -key "$tmp/key.pem" &
	pid=$!
	for _ in $(seq 50); do curl -fsk "$url" >/dev/null 2>&1 && break || sleep 0.1; done
	[ "$mode" = hs ] || "${loadpin[@]}" h2load "${args[@]:0:${#args[@]}-2}" -n 2000 "$url" >/dev/null 2>&1 # warm-up
	local c0 c1 out n rps
	c0=$(cpu "$pid")
	out=$("${loadpin[@]}" timeout $((secs + 30)) h2load "${args[@]}" "$url" 2>&1)
	c1=$(cpu "$pid")
	kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
	n=$(awk '/^requests:/{print $8}' <<<"$out")
	rps=$(awk '/^finished in/{print $4}' <<<"$out")
	printf '%-4s %-8s %12s req/s %8s us CPU/req\n' "$mode" "$s" "$rps" \
		"$(awk -v a="$c0" -v b="$c1" -v n="$n" -v t="$tck" 'BEGIN{printf "%.1f", (b-a)/t*1e6/n}')"
}

for r in $(seq "$rounds"); do
	echo "round $r"
	for m in $modes; do
		case $m in
		h2) servers="brisk bridge xnet nethttp" ;;
		*) servers="brisk nethttp" ;;
		esac
		for s in $servers; do run "$s" "$m"; done
	done
done
