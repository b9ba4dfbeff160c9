#!/usr/bin/env bash
# parke2e.sh: end-to-end plaintext req/s and p99 latency of brisk with
# parking off (Server.NoParkIdle) and on (the default: ParkIdleAfter 2 s),
# as the median of alternating rounds.
#
# Both servers (bench/servers/brisk) are pinned to core 0 and wrk to core
# 1. Modes: c50 (50 connections), pipelined (50 connections, 16 requests
# in flight on each), idle1k and idle10k (950 and 9,950 idle keep-alive
# connections held by bench/idle -hold, opened before the rounds, parked
# in the "on" server, beside 50 busy ones), c2000 (2,000 busy connections,
# opened at once each round: more new connections wait at once than the
# parker lets wait in goroutines, so some are parked at once before their
# second request). Each round runs off then on,
# or on then off, alternately, for SECONDS each. Prints one line per run
# (req/s, p99, and the server's CPU time per request from /proc/PID/stat,
# which moves less than req/s on shared cores), then per mode the medians
# of each server and the medians of the per-round on/off ratios.
#
# Usage: bench/parke2e.sh [-d SECONDS] [-r ROUNDS] [MODES...]
#        defaults: 2, 6, c50 pipelined idle1k idle10k c2000
set -euo pipefail
secs=2 rounds=6
while getopts "d:r:" o; do
	case $o in d) secs=$OPTARG ;; r) rounds=$OPTARG ;; *) sed -n '2,19p' "$0"; exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && set -- c50 pipelined idle1k idle10k c2000
. "$(dirname "$0")/lib.sh"
declare -A flags=([off]="-park=false" [on]="")
(cd "$bench" && go build -o "$tmp/brisk" ./servers/brisk && go build -o "$tmp/idle" ./idle)
ulimit -n "$(ulimit -Hn)"

# start launches both servers on new ports.
start() {
	local base=$((20000 + RANDOM % 12000)) i=0 # below the ephemeral ports
	for s in off on; do
		port[$s]=$((base + i)); i=$((i + 1))
		# shellcheck disable=SC2086
		"${srvpin[@]}" "$tmp/brisk" -addr "127.0.0.1:${port[$s]}" ${flags[$s]} &
		pid[$s]=$!
	done
	for s in off on; do
		for _ in $(seq 50); do curl -fs "http://127.0.0.1:${port[$s]}/" >/dev/null 2>&1 && break || sleep 0.1; done
		kill -0 "${pid[$s]}" || { echo "server $s did not start" >&2; exit 1; }
	done
}

# stop ends the servers and the idle connections' holders.
stop() {
	for s in "${!pid[@]}"; do kill "${pid[$s]}" 2>/dev/null || true; done
	wait 2>/dev/null || true
	pid=()
}

# hold opens n idle connections to each server and waits until the on
# server has parked them (ParkIdleAfter 2 s, then two 1 s sweeps).
hold() {
	local n=$1
	for s in off on; do
		mkfifo "$tmp/hold-$s"
		"${loadpin[@]}" "$tmp/idle" -hold "127.0.0.1:${port[$s]}" -n "$n" <"$tmp/hold-$s" >"$tmp/held-$s" &
		pid[hold-$s]=$! # killed by stop, or lib.sh's cleanup
		exec {fd}>"$tmp/hold-$s" # keeps the holder's stdin open
		rm "$tmp/hold-$s"
	done
	for s in off on; do
		for _ in $(seq 600); do grep -q held "$tmp/held-$s" 2>/dev/null && break || sleep 0.1; done
	done
	sleep 5
}

# run loads server s in mode and prints "req/s p99-in-ms CPU-us/request":
# the server's CPU time per request moves less than req/s when other
# processes share the cores.
run() {
	local mode=$1 s=$2 args=(-t1 -c50 -d"${secs}s" --latency --timeout 10s) script=() t0 t1
	[ "$mode" = pipelined ] && args+=(-s "$bench/pipeline.lua") && script=(-- 16)
	[ "$mode" = c2000 ] && args[1]=-c2000
	t0=$(cputicks "${pid[$s]}")
	res=$(timeout $((secs + 30)) "${loadpin[@]}" wrk "${args[@]}" "http://127.0.0.1:${port[$s]}/" "${script[@]}")
	t1=$(cputicks "${pid[$s]}")
	[ -n "${PARKE2E_DEBUG:-}" ] && echo "$res" >&2
	awk -v ticks=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" '/^Requests\/sec:/ {r = $2} / requests in / {n = $1}
		$1 == "99%" {v = $2; if (v ~ /us$/) v = v / 1000; else if (v ~ /ms$/) v = v + 0; else if (v ~ /s$/) v = v * 1000; p = v}
		END {printf "%.0f %.2f %.2f\n", r, p, ticks / hz * 1e6 / n}' <<<"$res"
}

# median prints the median of its arguments.
median() { printf "%s\n" "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

for mode in "$@"; do
	start
	case $mode in idle1k) hold 950 ;; idle10k) hold 9950 ;; esac
	declare -A rps=() p99=() cpu=()
	ratios=() pratios=() cratios=()
	for round in $(seq "$rounds"); do
		order=(off on)
		[ $((round % 2)) -eq 0 ] && order=(on off)
		for s in "${order[@]}"; do
			read -r r p c < <(run "$mode" "$s")
			rps[$s]+="$r " p99[$s]+="$p " cpu[$s]+="$c "
			printf "%-9s %-3s round %d: %8d req/s  p99 %8.2f ms  CPU %6.2f us/request\n" "$mode" "$s" "$round" "$r" "$p" "$c"
			[ "$s" = off ] && off_r=$r off_p=$p off_c=$c || { on_r=$r on_p=$p on_c=$c; }
		done
		ratios+=("$(awk -v a="$on_r" -v b="$off_r" 'BEGIN {printf "%.3f", a / b}')")
		pratios+=("$(awk -v a="$on_p" -v b="$off_p" 'BEGIN {printf "%.3f", a / b}')")
		cratios+=("$(awk -v a="$on_c" -v b="$off_c" 'BEGIN {printf "%.3f", a / b}')")
	done
	# shellcheck disable=SC2086
	printf "%-9s median: off %6.0f req/s p99 %6.2f ms %5.2f us/req | on %6.0f req/s p99 %6.2f ms %5.2f us/req | on/off: req/s %s, p99 %s, CPU/req %s\n" "$mode" \
		"$(median ${rps[off]})" "$(median ${p99[off]})" "$(median ${cpu[off]})" \
		"$(median ${rps[on]})" "$(median ${p99[on]})" "$(median ${cpu[on]})" \
		"$(median "${ratios[@]}")" "$(median "${pratios[@]}")" "$(median "${cratios[@]}")"
	stop
done
