#!/usr/bin/env bash
# profiles.sh: brisk against fasthttp, net/http, nbio (bench/profsrv),
# hertz on netpoll (bench/hertzsrv) and a C epoll loop, the floor
# (bench/floor), side by side in workload profiles like HttpArena's: one
# load run per profile and server, the servers interleaved (order
# alternating by round) and the rounds repeated; medians.
#
# Each server is pinned to core 0, the load generator (wrk, 1 thread, or
# h2load) to core 1. Profiles (servers: all = the Go ones and the floor,
# go = the Go ones):
#   base     all   GET /, "Hello, World!", 50 connections
#   base4k   all   the same with 4,096 connections, at least 10 s a run
#   pipe16   all   GET /, pipelined 16 deep (pipeline.lua), 50 conns
#   close    all   GET / with "Connection: close": a connection a request
#   json     go    GET /json: a small struct by encoding/json, 50 conns
#   upload   go    POST /upload, 20 MB bodies read as a stream and
#                  discarded (upload.lua), 64 conns, at least 6 s a run;
#                  as most bodies are still in flight when a run ends,
#                  bodies a second and CPU per body count the bytes the
#                  server read (/proc/PID/io rchar) in 20 MB units
#   s1k s64k s1m  go  a 1 KiB, 64 KiB, 1 MiB file (GET /f/NAME), 50
#                  conns (1 MiB: 10 conns)
#   gzip64k  brisk fasthttp  a 64 KiB JSON file (GET /gz/NAME) with
#                  Accept-Encoding: gzip, compressed on the fly at level 6
#                  (net/http, nbio and hertz have no on-the-fly compressor
#                  of their own)
#   noisy    go    GET /, one request in ten malformed (noisy.lua):
#                  valid req/s; a server that does not answer the bad
#                  one 400 is left out, and the results say so
#   idle     all   50 busy connections (GET /) while bench/idleconns
#                  holds 10,000 idle keep-alive ones: p99 of the busy
#   tls1     brisk fasthttp nethttp  HTTPS, HTTP/1.1: h2load --h1 -c 50
#   tls2     brisk nethttp  HTTP/2 over TLS: h2load -c 50 -m 10
# For each: req/s (noisy: valid responses only), the server's CPU time
# per request (utime+stime, /proc/PID/stat, over the load run), the p99
# latency (wrk's, or from h2load's --log-file), the server's peak RSS
# during the run (sampled every 0.2 s). Writes bench/results/profiles.md
# with the machine, date, command and load average (the machine is
# shared: read the ratios); text below a "<!-- notes -->" line of the
# previous file is kept.
#
# Usage: bench/profiles.sh [-d SECONDS] [-r ROUNDS] [-p "PROFILES"]
#   defaults: -d 3 -r 3 -p "base base4k pipe16 close json upload s1k
#   s64k s1m gzip64k noisy idle tls1 tls2"
set -euo pipefail

secs=3 rounds=3 profiles="base base4k pipe16 close json upload s1k s64k s1m gzip64k noisy idle tls1 tls2"
while getopts "d:r:p:" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; p) profiles=$OPTARG ;;
	*) sed -n "2,44p" "$0"; exit 2 ;;
	esac
done
cmdline="bench/profiles.sh -d $secs -r $rounds -p \"$profiles\""

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profsrvs.sh"
# rssmax PID FILE: until killed, keeps the peak VmRSS (KB) of PID in FILE.
rssmax() {
	local m=0 v
	while v=$(awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null); do
		((v > m)) && m=$v && echo "$m" >"$2.new" && mv "$2.new" "$2" # a kill never leaves it empty
		sleep 0.2
	done
}
# measure PROFILE SERVER: one run; appends "profile server rps cpu_us
# p99_ms rss_mb" to the data.
measure() {
	local p=$1 s=$2 proc=$2 before after rc0 rc1 n p99 bad rps idler ready open
	[[ $p == tls* ]] && proc=$s-tls
	if [ "$p" = idle ]; then
		coproc idler { exec "${loadpin[@]}" "$tmp/idleconns" -addr "127.0.0.1:${port[$proc]}" -n 10000 2>/dev/null; }
		read -r _ ready <&"${idler[0]}" || ready=0
	fi
	echo 0 >"$tmp/rss"
	rssmax "${pid[$proc]}" "$tmp/rss" &
	local sampler=$!
	before=$(cputicks "${pid[$proc]}") rc0=$(rchar "${pid[$proc]}")
	read -r n p99 bad rps <<<"$(load "$p" "$proc")"
	after=$(cputicks "${pid[$proc]}") rc1=$(rchar "${pid[$proc]}")
	if [ "$p" = upload ]; then # bodies received, most still in flight at the end
		n=$(echo "($rc1 - $rc0) / 20000000" | bc -l)
		rps=$(echo "$n / $(updur)" | bc -l)
	fi
	kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
	if [ "$p" = idle ]; then
		kill -TERM "$idler_PID" 2>/dev/null
		read -r _ open <&"${idler[0]}" || open=0
		wait "$idler_PID" 2>/dev/null || true
		echo "idle $s: $ready idle connections ready, $open open at the end" >>"$tmp/idlelog"
	fi
	if [ "${n:-0}" = 0 ]; then echo "$p $s: no responses" >&2; return; fi
	echo "$p $s $rps $(echo "($after - $before) * 1000000 / $hz / $n" | bc -l) $p99 $(($(cat "$tmp/rss") / 1024))" >>"$tmp/data"
	printf "%-7s %-9s %10.0f req/s %8.2f µs/req p99 %s ms rss %s MB\n" "$p" "$s" "$rps" \
		"$(tail -1 "$tmp/data" | cut -d' ' -f4)" "$p99" "$(tail -1 "$tmp/data" | cut -d' ' -f6)" >&2
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
date0=$(date -u '+%Y-%m-%d %H:%M UTC')
for r in $(seq "$rounds"); do
	for p in $profiles; do
		read -ra order <<<"$(servers "$p")"
		if ! ((r % 2)); then # alternate the order from round to round
			for ((i = 0, j = ${#order[@]} - 1; i < j; i++, j--)); do t=${order[i]} order[i]=${order[j]} order[j]=$t; done
		fi
		for s in "${order[@]}"; do measure "$p" "$s"; done
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p "$out"
keep=
[ -f "$out/profiles.md" ] && keep=$(sed -n '/^<!-- notes -->$/,$p' "$out/profiles.md")
{
	awk -v secs="$secs" -v rounds="$rounds" -v profiles="$profiles" -v host="$(uname -srm), $(nproc) cores" \
		-v date="$date0" -v load0="$load0" -v load1="$load1" -v cmd="$cmdline" '
function median(a, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
function med(v, k,   a, j) { for (j = 1; j <= n[k]; j++) a[j] = v[k, j]; return median(a, n[k]) }
{ k = $1 " " $2; i = ++n[k]; rps[k, i] = $3; cpu[k, i] = $4; p99[k, i] = $5; rss[k, i] = $6 }
END {
	print "# Workload profiles\n"
	print "wrk (1 thread; h2load for tls1, tls2) on core 1, each server on core 0 (GOMAXPROCS 1); " rounds " round(s) x " secs " s per profile and server (base4k: at least 10 s, upload 6 s), servers interleaved (order alternating by round), medians. " host ", " date "; load average " load0 " before, " load1 " after (the machine is shared: read the ratios, not the absolute figures).\n"
	print "Command: `" cmd "`\n"
	print "## Who leads\n"
	print "Best Go peer: the fastest of fasthttp, net/http, nbio, hertz in the profile. brisk/peer > 1 means brisk leads (req/s); CPU ratio < 1 means brisk spends less per request.\n"
	print "| profile | leader (req/s) | brisk/best peer req/s | brisk/least-CPU peer CPU per request | brisk p99 / best peer p99 | brisk/floor req/s |"
	print "|---|---|---:|---:|---:|---:|"
	np = split(profiles, pr, " "); ns = split("brisk fasthttp nethttp nbio hertz floor", srv, " ")
	for (pi = 1; pi <= np; pi++) {
		for (i = 1; i <= ns; i++) { k = pr[pi] " " srv[i]; if (k in n) { R[k] = med(rps, k); C[k] = med(cpu, k); P[k] = med(p99, k); M[k] = med(rss, k) } }
		bestR[pi] = 0; bestC[pi] = 0; lead = ""; leadR = 0
		for (i = 2; i <= 5; i++) { k = pr[pi] " " srv[i]; if (!(k in n)) continue
			if (R[k] > bestR[pi]) { bestR[pi] = R[k]; bestP = P[k] } if (bestC[pi] == 0 || C[k] < bestC[pi]) bestC[pi] = C[k] }
		for (i = 1; i <= 5; i++) { k = pr[pi] " " srv[i]; if ((k in n) && R[k] > leadR) { leadR = R[k]; lead = srv[i] } }
		kb = pr[pi] " brisk"; kf = pr[pi] " floor"
		if (!(kb in n)) continue
		printf "| %s | %s | %.2f | %.2f | %.2f | %s |\n", pr[pi], lead, R[kb] / bestR[pi], C[kb] / bestC[pi], bestP ? P[kb] / bestP : 0, (kf in n) ? sprintf("%.2f", R[kb] / R[kf]) : "-"
	}
	print "\n## All figures\n"
	print "| profile | server | req/s | req/s ratio to best Go peer | CPU µs/request | CPU ratio to least-CPU Go peer | p99 ms | peak RSS MB |"
	print "|---|---|---:|---:|---:|---:|---:|---:|"
	for (pi = 1; pi <= np; pi++)
		for (i = 1; i <= ns; i++) { k = pr[pi] " " srv[i]; if (!(k in n)) continue
			printf "| %s | %s | %.0f | %.2f | %.2f | %.2f | %.2f | %d |\n", pr[pi], srv[i], R[k], bestR[pi] ? R[k] / bestR[pi] : 0, C[k], bestC[pi] ? C[k] / bestC[pi] : 0, P[k], M[k] }
	print "\nRatios are to the best of the Go peers other than brisk (for a peer, that includes itself). noisy counts valid responses only. upload: req/s are 20 MB bodies a second and CPU is per 20 MB, from the bytes the server read (rchar); p99 is of the bodies completed."
}' "$tmp/data"
	echo
	echo "Raw lines (profile server req/s cpu_us p99_ms rss_mb):"
	echo
	sed 's/^/    /' "$tmp/data"
	for l in "${notes[@]}"; do echo; echo "$l"; done
	if [ -f "$tmp/idlelog" ]; then echo; sed 's/^/    /' "$tmp/idlelog"; fi
	if [ -n "$keep" ]; then echo; echo "$keep"; fi
} >"$out/profiles.md.new"
mv "$out/profiles.md.new" "$out/profiles.md"
cat "$out/profiles.md"
