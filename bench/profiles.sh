#!/usr/bin/env bash
# profiles.sh: brisk, fasthttp and net/http (bench/profsrv) side by side
# in workload profiles like HttpArena's, one wrk run per profile and
# server, the servers interleaved and the rounds repeated; medians.
#
# Each server is pinned to core 0, wrk (1 thread) to core 1. Profiles:
#   base        GET /, "Hello, World!", 50 connections
#   base4k      the same with 4,096 connections, at least 10 s per run
#               (skipped when the open file limit cannot be raised)
#   pipe16      GET /, pipelined 16 deep (bench/pipeline.lua), 50 conns
#   close       GET / with "Connection: close": one connection per request
#   json        GET /json: a small struct by encoding/json, 50 conns
#   s1k s64k s1m  a 1 KiB, 64 KiB, 1 MiB file (GET /f/NAME), 50 conns
#               (1 MiB: 10 conns)
#   noisy       GET /, one request in ten malformed (bench/noisy.lua):
#               valid req/s; every bad one must get 400
# For each: req/s (noisy: valid responses only), the server's CPU time per
# request (utime+stime from /proc/PID/stat over the run), and wrk's p99
# latency. Writes bench/results/profiles.md, with the load average
# before and after: on a shared machine only the ratios are meaningful.
#
# Usage: bench/profiles.sh [-d SECONDS] [-r ROUNDS] [-p "PROFILES"]
#   defaults: -d 3 -r 3 -p "base base4k pipe16 close json s1k s64k s1m noisy"
set -euo pipefail

secs=3 rounds=3 profiles="base base4k pipe16 close json s1k s64k s1m noisy"
while getopts "d:r:p:" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; p) profiles=$OPTARG ;;
	*) sed -n '2,25p' "$0"; exit 2 ;;
	esac
done

. "$(dirname "$0")/lib.sh"
servers=(brisk fasthttp nethttp)

root=$tmp/root
mkdir -p "$root"
head -c 1024 /dev/urandom >"$root/f1k"
head -c 65536 /dev/urandom >"$root/f64k"
head -c 1048576 /dev/urandom >"$root/f1m"
(cd "$bench" && go build -o "$tmp/profsrv" ./profsrv)
if [[ " $profiles " == *" base4k "* ]] && ! ulimit -n 20000 2>/dev/null; then
	echo "open file limit $(ulimit -n): skipping base4k" >&2
	profiles=${profiles/base4k/}
fi
for _ in $(seq 20); do
	base=$((20000 + RANDOM % 20000))
	ss -ltnH 2>/dev/null | awk '{print $4}' | grep -qE ":($base|$((base + 1))|$((base + 2)))\$" || break
done
for i in "${!servers[@]}"; do
	s=${servers[$i]}
	port[$s]=$((base + i))
	"${srvpin[@]}" "$tmp/profsrv" -impl "$s" -root "$root" -addr "127.0.0.1:${port[$s]}" >"$tmp/$s.log" 2>&1 &
	pid[$s]=$!
done
for s in "${servers[@]}"; do
	for _ in $(seq 50); do curl -fs "http://127.0.0.1:${port[$s]}/" >/dev/null 2>&1 && break || sleep 0.1; done
	for f in f1k f64k f1m; do
		curl -fs "http://127.0.0.1:${port[$s]}/f/$f" -o "$tmp/got" && cmp -s "$tmp/got" "$root/$f" ||
			{ echo "$s /f/$f: wrong body" >&2; cat "$tmp/$s.log" >&2; exit 1; }
	done
	# The malformed request of noisy.lua must be answered 400.
	st=$(printf 'GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1x\r\n\r\n' |
		timeout 3 curl -s --max-time 2 "telnet://127.0.0.1:${port[$s]}" 2>/dev/null | head -1 | tr -d '\r' || true)
	[[ $st == "HTTP/1.1 400"* ]] || { echo "$s: malformed request answered \"$st\", want 400" >&2; exit 1; }
done

hz=$(getconf CLK_TCK)
# args PROFILE: wrk's options, the path and the script's arguments of a
# profile, separated by "|".
args() {
	case $1 in
	base) echo "-c50|/|" ;; base4k) echo "-c4096|/|" ;;
	pipe16) echo "-c50 -s $bench/pipeline.lua|/|16" ;;
	close) echo "-c50 -H Connection:close|/|" ;;
	json) echo "-c50|/json|" ;;
	s1k) echo "-c50|/f/f1k|" ;; s64k) echo "-c50|/f/f64k|" ;; s1m) echo "-c10|/f/f1m|" ;;
	noisy) echo "-c50 -s $bench/noisy.lua|/|" ;;
	esac
}
# measure PROFILE SERVER: one run; appends "profile server rps cpu_us p99_ms".
measure() {
	local p=$1 s=$2 opts path post pre before after res n bad rps p99
	IFS='|' read -r opts path post <<<"$(args "$p")"
	read -ra pre <<<"$opts"
	read -ra post <<<"$post"
	((${#post[@]})) && post=(-- "${post[@]}")
	local d=$secs
	[ "$p" = base4k ] && d=$((secs < 10 ? 10 : secs)) # 4,096 connects take seconds
	before=$(cputicks "${pid[$s]}")
	res=$(timeout $((d + 60)) "${loadpin[@]}" wrk -t1 -d"${d}s" --timeout 10s --latency "${pre[@]}" "http://127.0.0.1:${port[$s]}$path" "${post[@]}")
	after=$(cputicks "${pid[$s]}")
	n=$(awk '/requests in/ {print $1}' <<<"$res")
	if [ "${n:-0}" = 0 ]; then echo "$p $s: no responses" >&2; sed 's/^/  /' <<<"$res" >&2; return; fi
	bad=$(awk '/Non-2xx or 3xx responses:/ {print $NF}' <<<"$res")
	rps=$(awk -v n="$n" -v bad="${bad:-0}" '/requests in/ {sub(/s,?$/, "", $4); print (n - bad) / $4}' <<<"$res")
	p99=$(awk '$1 == "99%" {v = $2; if (v ~ /us$/) v /= 1000; else if (v ~ /ms$/) v += 0; else if (v ~ /s$/) v *= 1000; print v + 0}' <<<"$res")
	echo "$p $s $rps $(echo "($after - $before) * 1000000 / $hz / $n" | bc -l) ${p99:-0}" >>"$tmp/data"
	printf "%-7s %-9s %10.0f req/s %8.2f µs/req p99 %s ms\n" "$p" "$s" "$rps" "$(tail -1 "$tmp/data" | cut -d' ' -f4)" "$p99" >&2
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$rounds"); do
	for p in $profiles; do
		# Alternate the order of the servers from round to round.
		if ((r % 2)); then order=(brisk fasthttp nethttp); else order=(nethttp fasthttp brisk); fi
		for s in "${order[@]}"; do measure "$p" "$s"; done
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p "$out"
awk -v secs="$secs" -v rounds="$rounds" -v profiles="$profiles" -v host="$(uname -srm), $(nproc) cores" \
	-v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v load0="$load0" -v load1="$load1" '
function median(a, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
{ k = $1 " " $2; i = ++n[k]; rps[k, i] = $3; cpu[k, i] = $4; p99[k, i] = $5 }
END {
	print "# Workload profiles\n"
	print "wrk (1 thread) on core 1, each server on core 0 (GOMAXPROCS 1); " rounds " round(s) x " secs " s per profile and server, servers interleaved (order alternating by round), medians. " host ", " date "; load average " load0 " before, " load1 " after (the machine is shared: read the ratios, not the absolute figures).\n"
	print "| profile | server | req/s | req/s ratio to best Go peer | CPU µs/request | CPU ratio to best peer | p99 ms |"
	print "|---|---|---:|---:|---:|---:|---:|"
	np = split(profiles, pr, " "); split("brisk fasthttp nethttp", srv, " ")
	for (pi = 1; pi <= np; pi++) {
		for (i = 1; i <= 3; i++) { k = pr[pi] " " srv[i]; if (!(k in n)) continue
			delete a; for (j = 1; j <= n[k]; j++) a[j] = rps[k, j]; R[k] = median(a, n[k])
			delete a; for (j = 1; j <= n[k]; j++) a[j] = cpu[k, j]; C[k] = median(a, n[k])
			delete a; for (j = 1; j <= n[k]; j++) a[j] = p99[k, j]; P[k] = median(a, n[k]) }
		bestR = 0; bestC = 0
		for (i = 2; i <= 3; i++) { k = pr[pi] " " srv[i]; if (R[k] > bestR) bestR = R[k]; if (bestC == 0 || C[k] < bestC) bestC = C[k] }
		for (i = 1; i <= 3; i++) { k = pr[pi] " " srv[i]; if (!(k in n)) continue
			printf "| %s | %s | %.0f | %.2f | %.2f | %.2f | %.2f |\n", pr[pi], srv[i], R[k], bestR ? R[k] / bestR : 0, C[k], bestC ? C[k] / bestC : 0, P[k] }
	}
	print "\nThe ratios are to the better of fasthttp and net/http in the profile (for them, to each other). noisy counts valid responses only."
	print "Reproduce: `bench/profiles.sh -d " secs " -r " rounds "`."
}' "$tmp/data" >"$out/profiles.md"
cat "$out/profiles.md"
