#!/usr/bin/env bash
# filesyscalls.sh: what serving a 1 MiB file costs per response in system
# calls and scheduler wake-ups, brisk's files.Server against fasthttp.FS
# and http.FileServer (bench/filesrv), for a machine too loaded for
# absolute timings to mean anything.
#
# Each server is pinned to core 0, wrk (1 thread, -c connections) to
# core 1. Per round and server, interleaved: req/s, the server's CPU time
# per response (utime+stime, /proc/PID/stat) and its context switches
# per response (voluntary + involuntary, summed over /proc/PID/task/*:
# every one is a wake-up of a thread). Then one run per server under
# `strace -f -c` (attached for the run only): system calls per response.
# Ratios are to net/http, measured side by side in the same rounds; the
# load average before and after is recorded.
#
# Usage: bench/filesyscalls.sh [-d SECONDS] [-c CONNS] [-r ROUNDS]
#   defaults: -d 3 -c 10 -r 3. Writes bench/results/filesyscalls.md.
set -euo pipefail

secs=3 conns=10 rounds=3
while getopts "d:c:r:" o; do
	case $o in
	d) secs=$OPTARG ;; c) conns=$OPTARG ;; r) rounds=$OPTARG ;;
	*) sed -n '2,19p' "$0"; exit 2 ;;
	esac
done

. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || (apt-get update -qq && apt-get install -y -qq strace) >/dev/null

root=$tmp/root
mkdir -p "$root"
head -c 1048576 /dev/urandom >"$root/f1m.bin"
(cd "$bench" && go build -o "$tmp/filesrv" ./filesrv)
servers=(brisk fasthttp nethttp)
for _ in $(seq 20); do
	base=$((20000 + RANDOM % 20000))
	ss -ltnH 2>/dev/null | awk '{print $4}' | grep -qE ":($base|$((base + 1))|$((base + 2)))\$" || break
done
for i in "${!servers[@]}"; do
	s=${servers[$i]}
	port[$s]=$((base + i))
	"${srvpin[@]}" "$tmp/filesrv" -impl "$s" -root "$root" -addr "127.0.0.1:${port[$s]}" >"$tmp/$s.log" 2>&1 &
	pid[$s]=$!
done
for s in "${servers[@]}"; do
	for _ in $(seq 50); do
		curl -fs "http://127.0.0.1:${port[$s]}/f1m.bin" -o "$tmp/got" 2>/dev/null && break || sleep 0.1
	done
	cmp -s "$tmp/got" "$root/f1m.bin" || { echo "$s: body differs from the file" >&2; exit 1; }
done

hz=$(getconf CLK_TCK)
ctxsw() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {n += $2} END {print n}'; }
run() { timeout $((secs + 30)) "${loadpin[@]}" wrk -t1 -c"$conns" -d"${secs}s" --timeout 10s "http://127.0.0.1:${port[$1]}/f1m.bin"; }
reqs() { awk '/requests in/ {print $1}' <<<"$1"; }

load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$rounds"); do
	for s in "${servers[@]}"; do
		t0=$(cputicks "${pid[$s]}") x0=$(ctxsw "${pid[$s]}")
		res=$(run "$s")
		t1=$(cputicks "${pid[$s]}") x1=$(ctxsw "${pid[$s]}")
		n=$(reqs "$res")
		echo "$s $(awk '/^Requests\/sec:/ {print $2}' <<<"$res") $(echo "($t1 - $t0) * 1000000 / $hz / $n" | bc -l) $(echo "($x1 - $x0) / $n" | bc -l)" >>"$tmp/data"
		echo "round $r $s: $(tail -1 "$tmp/data")" >&2
	done
done
for s in "${servers[@]}"; do
	timeout -s TERM $((secs + 2)) strace -f -c -o "$tmp/strace.$s" -p "${pid[$s]}" 2>/dev/null &
	st=$!
	sleep 0.5
	res=$(run "$s")
	wait "$st" || true
	awk -v s="$s" -v n="$(reqs "$res")" '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "syscall" && $NF != "total" {print s, $NF, $4 / n}' "$tmp/strace.$s" >>"$tmp/sys"
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p "$out"
{
	echo "# 1 MiB file: system calls and wake-ups per response"
	echo
	echo "wrk (1 thread, $conns connections) on core 1, server on core 0 (GOMAXPROCS 1); $rounds interleaved round(s) x $secs s per server, medians. $(uname -srm), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'); load average $load0 before, $load1 after (other engineers' jobs share the cores: compare ratios, not absolute figures)."
	echo
	echo "| server | req/s | req/s ratio to net/http | CPU µs/response | CPU ratio to net/http | context switches/response |"
	echo "|---|---:|---:|---:|---:|---:|"
	awk '
	function median(a, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
	{ k = ++n[$1]; rps[$1, k] = $2; cpu[$1, k] = $3; cs[$1, k] = $4 }
	END {
		split("brisk fasthttp nethttp", srv, " ")
		for (i = 1; i <= 3; i++) { s = srv[i]; delete a; for (k = 1; k <= n[s]; k++) a[k] = rps[s, k]; R[s] = median(a, n[s])
			delete a; for (k = 1; k <= n[s]; k++) a[k] = cpu[s, k]; C[s] = median(a, n[s])
			delete a; for (k = 1; k <= n[s]; k++) a[k] = cs[s, k]; X[s] = median(a, n[s]) }
		for (i = 1; i <= 3; i++) { s = srv[i]
			printf "| %s | %.0f | %.2f | %.0f | %.2f | %.2f |\n", s, R[s], R[s] / R["nethttp"], C[s], C[s] / C["nethttp"], X[s] }
	}' "$tmp/data"
	echo
	echo "System calls per response under \`strace -f -c\` (one run of $secs s per server; strace slows the server, so the counts, not the rate, are the figure; calls under 0.02 per response left out):"
	echo
	echo "| system call | brisk | fasthttp | nethttp |"
	echo "|---|---:|---:|---:|"
	awk '{ v[$2, $1] = $3; if ($3 >= 0.02) keep[$2] = 1; t[$1] += $3 }
	END { for (c in keep) printf "| %s | %.2f | %.2f | %.2f |\n", c, v[c, "brisk"], v[c, "fasthttp"], v[c, "nethttp"]
		printf "| **total** | %.2f | %.2f | %.2f |\n", t["brisk"], t["fasthttp"], t["nethttp"] }' "$tmp/sys" | sort -t'|' -k3 -rn
	echo
	echo "Reproduce: \`bench/filesyscalls.sh -d $secs -c $conns -r $rounds\`."
} >"$out/filesyscalls.md"
cat "$out/filesyscalls.md"
