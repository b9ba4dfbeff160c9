#!/usr/bin/env bash
# rapidreset.sh: CPU per stream of an HTTP/2 "rapid reset" flood
# (CVE-2023-44487: HEADERS then RST_STREAM, stream after stream, on one
# connection) against brisk's HTTP/2 and net/http's own, in one run.
#
# Builds servers/tls and rapidreset, then for each server (servers/tls
# -s: bridge is brisk with its own handler through the net/http adaptor,
# brisk the same with an http.Handler given to h2.Config, nethttp is
# net/http.Server) runs rapidreset -n STREAMS against it, the server
# pinned to core 0 and the client to core 1, ROUNDS rounds interleaved.
# It prints the streams the client sent before the server ended the
# connection, the GOAWAY it got (ENHANCE_YOUR_CALM is the defence
# answering), and the server's CPU time (utime+stime from
# /proc/PID/stat, 10 ms ticks) per stream sent and per stream taken in
# (up to the GOAWAY's last stream ID: the server reads no further).
# BATCH=N in the environment sets the stream pairs per client write
# (default 100); PROFILE=FILE writes a CPU profile per server to
# FILE.SERVER.
#
# Usage: bench/rapidreset.sh [-n STREAMS] [-r ROUNDS] [-s "SERVERS"]
#   Defaults: -n 200000 -r 3 -s "bridge brisk nethttp".
set -euo pipefail

streams=200000 rounds=3 servers="bridge brisk nethttp"
while getopts "n:r:s:" o; do
	case $o in
	n) streams=$OPTARG ;; r) rounds=$OPTARG ;; s) servers=$OPTARG ;;
	*) sed -n '2,20p' "$0"; exit 2 ;;
	esac
done

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
(cd "$bench" && go build -o "$tmp/srv" ./servers/tls && go build -o "$tmp/rr" ./rapidreset)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	-keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
freeport() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
tck=$(getconf CLK_TCK)

# run SERVER: one flood, printed as a line.
run() {
	local s=$1 port
	port=$(freeport)
	"${srvpin[@]}" "$tmp/srv" -s "$s" -addr "127.0.0.1:$port" -cert "$tmp/cert.pem" -key "$tmp/key.pem" ${PROFILE:+-cpuprofile "$PROFILE.$s"} &
	pid=$!
	for _ in $(seq 50); do curl -fsk --http2 "https://127.0.0.1:$port/" >/dev/null 2>&1 && break || sleep 0.1; done
	local c0 c1 out n p
	c0=$(cpu "$pid")
	out=$("${loadpin[@]}" timeout 120 "$tmp/rr" -addr "127.0.0.1:$port" -n "$streams" ${BATCH:+-batch "$BATCH"})
	sleep 1 # the server finishes what the flood queued
	c1=$(cpu "$pid")
	kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
	n=$(awk '{print $2}' <<<"$out")
	# Streams the server took in: all sent, or up to the GOAWAY's last stream.
	p=$(awk '/GOAWAY/{for (i = 1; i < NF; i++) if ($i == "last-stream") {print int(($(i+1) + 1) / 2); exit}} {print $2}' <<<"$out" | head -1)
	printf '%-8s %8s us CPU/stream sent %8s us CPU/stream taken (%s)  %s\n' "$s" \
		"$(awk -v a="$c0" -v b="$c1" -v n="$n" -v t="$tck" 'BEGIN{printf "%.1f", (b-a)/t*1e6/n}')" \
		"$(awk -v a="$c0" -v b="$c1" -v n="$p" -v t="$tck" 'BEGIN{printf "%.1f", (b-a)/t*1e6/n}')" "$p" "$out"
}

for r in $(seq "$rounds"); do
	echo "round $r"
	for s in $servers; do run "$s"; done
done
