#!/usr/bin/env bash
# revs.sh: brisk at two git revisions side by side, end to end, for
# telling a regression from the noise of a shared machine: each
# revision's bench/servers/brisk is built from `git archive`, pinned to
# core 0, and loaded by wrk (1 thread, core 1) in interleaved rounds
# (order alternating); per run req/s and the server's CPU time per
# request (utime+stime, /proc/PID/stat); medians at the end.
#
# Usage: bench/revs.sh [-d SECONDS] [-r ROUNDS] [-c CONNS] [-p DEPTH] [-u] REV1 REV2
#   defaults: -d 2 -r 6 -c 50 -p 16 (pipelined 16 deep; -p 1: one
#   request per round trip). -u: the upload profile of profiles.sh
#   instead (bench/profsrv -impl brisk, POST /upload of 20 MB bodies by
#   upload.lua, -c 64 unless given, at least 6 s a run): "req" is then a
#   20 MB body, counted from the bytes the server read (/proc/PID/io
#   rchar), as most bodies are still in flight when a run ends. Prints
#   the runs and the medians; records nothing: paste the output into
#   bench/results with the command.
set -euo pipefail

secs=2 rounds=6 conns= depth=16 upload=0
while getopts "d:r:c:p:u" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; c) conns=$OPTARG ;; p) depth=$OPTARG ;; u) upload=1 ;;
	*) sed -n '2,18p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || { sed -n '2,18p' "$0"; exit 2; }

. "$(dirname "$0")/lib.sh"
rchar() { awk '/^rchar/ {print $2}' "/proc/$1/io"; }
srv=./servers/brisk srvargs=() load=(-s "$bench/pipeline.lua") path=/ post=(-- "$depth")
if ((upload)); then
	srv=./profsrv srvargs=(-impl brisk) load=(-s "$bench/upload.lua" --timeout 10s) path=/upload post=()
	conns=${conns:-64} secs=$((secs < 6 ? 6 : secs))
fi
conns=${conns:-50}
revs=("$1" "$2")
for i in 0 1; do
	r=${revs[$i]} d=$tmp/src$i
	mkdir -p "$d"
	git -C "$bench/.." archive "$r" | tar -x -C "$d"
	(cd "$d/bench" && GOWORK=off go build -o "$tmp/srv$i" "$srv")
	port[$i]=$((20000 + RANDOM % 20000))
	"${srvpin[@]}" "$tmp/srv$i" "${srvargs[@]}" -addr "127.0.0.1:${port[$i]}" >/dev/null 2>&1 &
	pid[$i]=$!
done
for i in 0 1; do
	for _ in $(seq 50); do curl -fs "http://127.0.0.1:${port[$i]}/" >/dev/null 2>&1 && break || sleep 0.1; done
done
hz=$(getconf CLK_TCK)
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	order=(0 1)
	((r % 2)) || order=(1 0)
	for i in "${order[@]}"; do
		b=$(cputicks "${pid[$i]}") r0=$(rchar "${pid[$i]}")
		n=$(timeout $((secs + 30)) "${loadpin[@]}" wrk -t1 -c"$conns" -d"${secs}s" "${load[@]}" \
			"http://127.0.0.1:${port[$i]}$path" "${post[@]}" | awk '/requests in/ {print $1}')
		a=$(cputicks "${pid[$i]}") r1=$(rchar "${pid[$i]}")
		((upload)) && n=$(echo "($r1 - $r0) / 20000000" | bc -l)
		echo "${revs[$i]} $(echo "$n / $secs" | bc -l) $(echo "($a - $b) * 1000000 / $hz / $n" | bc -l)" >>"$tmp/data"
		tail -1 "$tmp/data" | awk '{printf "%-12s %10.0f req/s %6.3f µs/req\n", $1, $2, $3}'
	done
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
awk 'function median(a, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
	{ i = ++n[$1]; R[$1, i] = $2; C[$1, i] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
	END { for (x = 1; x <= k; x++) { r = order[x]; delete a; for (i = 1; i <= n[r]; i++) a[i] = R[r, i]; mr = median(a, n[r])
		delete a; for (i = 1; i <= n[r]; i++) a[i] = C[r, i]; mc = median(a, n[r])
		printf "median %-12s %10.0f req/s %6.3f µs/req (%d runs)\n", r, mr, mc, n[r] } }' "$tmp/data"
