#!/usr/bin/env bash
# proxye2e.sh: the accept-path cost of the PROXY protocol end to end.
#
# brisk serve runs behind HAProxy in HTTP mode with "option httpclose", so
# that every request is a new connection to brisk, with and without
# send-proxy-v2 (brisk with -proxy-protocol 127.0.0.1 for the former);
# brisk load sends "Connection: close" requests over -c connections. For
# each run it records the requests done and brisk's CPU time per request
# (utime+stime from /proc/PID/stat, before and after), interleaving the
# two modes over the rounds so that drift on a shared machine shows.
#
# Usage: bench/proxye2e.sh [-d SECONDS] [-r ROUNDS] [-c CONNS] [BRISK_BINARY]
#   defaults: -d 4 -r 2 -c 50, and the binary built from this tree.
# Needs haproxy (apt-get install haproxy).
set -euo pipefail

secs=4 rounds=2 conns=50
while getopts "d:r:c:" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; c) conns=$OPTARG ;;
	*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$tmp/brisk
	(cd "$(dirname "$0")/.." && go build -o "$bin" ./cmd/brisk)
fi

clk=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# free_port prints a loopback port free now (outside the ephemeral range
# is not guaranteed, but not in use).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# run MODE ROUND: one bounded load run; MODE is plain or proxy.
run() {
	local mode=$1 bport fport send="" pp=()
	bport=$(free_port) fport=$(free_port)
	if [ "$mode" = proxy ]; then send=send-proxy-v2 pp=(-proxy-protocol 127.0.0.1); fi
	"$bin" serve -addr "127.0.0.1:$bport" "${pp[@]}" >/dev/null 2>&1 &
	local spid=$!
	pids+=("$spid")
	cat >"$tmp/h.cfg" <<CFG
global
	maxconn 4096
defaults
	mode http
	option httpclose
	timeout connect 2s
	timeout client 10s
	timeout server 10s
frontend fe
	bind 127.0.0.1:$fport
	default_backend be
backend be
	server brisk 127.0.0.1:$bport $send
CFG
	haproxy -db -f "$tmp/h.cfg" >/dev/null 2>&1 &
	local hpid=$!
	pids+=("$hpid")
	local try
	for try in $(seq 1 50); do # until both listen
		curl -sf -o /dev/null "http://127.0.0.1:$fport/plaintext" && break
		[ "$try" -lt 50 ] || { echo "$mode: no answer through HAProxy" >&2; exit 1; }
		sleep 0.1
	done
	local before after
	before=$(cpu_ticks "$spid")
	"$bin" load -c "$conns" -d "${secs}s" -H "Connection: close" -json "http://127.0.0.1:$fport/plaintext" >"$tmp/load.json"
	after=$(cpu_ticks "$spid")
	kill "$spid" "$hpid"
	wait "$spid" "$hpid" 2>/dev/null || true
	python3 - "$mode" "$tmp/load.json" "$((after - before))" "$clk" <<'PY'
import json, sys
mode, path, ticks, clk = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
r = json.load(open(path))
n = r.get("requests") or r.get("Requests") or r.get("completed") or 0
errs = r.get("errors") or r.get("Errors") or {}
print(f"{mode:6} requests={n} errors={errs} brisk_cpu={ticks/clk:.2f}s cpu_us_per_req={ticks/clk*1e6/max(n,1):.1f}")
PY
}

for r in $(seq 1 "$rounds"); do
	run plain
	run proxy
done
