#!/usr/bin/env bash
# syscalls.sh: system calls per request of the servers of the workload
# profiles (profiles.sh: brisk, fasthttp, net/http, nbio, hertz, the C
# floor), counted with perf tracepoints (strace slows a server several
# times over and changes what it does), and the cost of each kind of call
# on this machine (bench/floor/syscost.c).
#
# For each profile and server: perf stat attaches to the server (every
# syscalls:sys_enter_* tracepoint, plus the exits of read, recvfrom,
# write and accept4 that failed with EAGAIN, and context switches),
# waits a second, the profile's load runs (the same as profiles.sh's,
# from profsrvs.sh), and the counts are divided by the requests the load
# completed (upload: by 20 MB bodies, from the bytes the server read).
# The servers are pinned to core 0 and the load to core 1 as in
# profiles.sh; req/s under perf are not reported (the tracepoints slow
# every call).
#
# Writes bench/results/syscalls.md (machine, date, command, the cost of
# each call, a table per profile); text below a "<!-- notes -->" line of
# the previous file is kept.
#
# Usage: bench/syscalls.sh [-d SECONDS] [-r ROUNDS] [-p "PROFILES"]
#   defaults: -d 3 -r 1 -p "base pipe16 close s1m upload tls1"; with
#   several rounds each figure is the median. Needs perf (root, or
#   kernel.perf_event_paranoid <= 1), and what profiles.sh needs.
set -euo pipefail

secs=3 rounds=1 profiles="base pipe16 close s1m upload tls1"
while getopts "d:r:p:" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; p) profiles=$OPTARG ;;
	*) sed -n "2,25p" "$0"; exit 2 ;;
	esac
done
cmdline="bench/syscalls.sh -d $secs -r $rounds -p \"$profiles\""
command -v perf >/dev/null || { echo "needs perf (linux-perf / linux-tools)" >&2; exit 1; }

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profsrvs.sh"
cc -O2 -o "$tmp/syscost" "$bench/floor/syscost.c"

# count PROFILE SERVER: one run under perf stat; appends "profile server
# event per_request" lines to the data, event "requests" first.
count() {
	local p=$1 s=$2 proc=$2 n rc0 rc1 perfpid
	[[ $p == tls* ]] && proc=$s-tls
	perf stat -x, -o "$tmp/perf" -e 'syscalls:sys_enter_*' \
		-e syscalls:sys_exit_read --filter 'ret == -11' \
		-e syscalls:sys_exit_recvfrom --filter 'ret == -11' \
		-e syscalls:sys_exit_write --filter 'ret == -11' \
		-e syscalls:sys_exit_accept4 --filter 'ret == -11' \
		-e context-switches -p "${pid[$proc]}" &
	perfpid=$!
	sleep 1 # attaching takes a moment; the idle server makes few calls
	rc0=$(rchar "${pid[$proc]}")
	read -r n _ <<<"$(load "$p" "$proc")"
	rc1=$(rchar "${pid[$proc]}")
	kill -INT "$perfpid"
	wait "$perfpid" || true
	[ "$p" = upload ] && n=$(echo "($rc1 - $rc0) / 20000000" | bc -l)
	if [ "$(echo "${n:-0} > 0" | bc)" != 1 ]; then echo "$p $s: no responses" >&2; return; fi
	awk -F, -v p="$p" -v s="$s" -v n="$n" -v rb=$((rc1 - rc0)) '
		BEGIN { printf "%s %s requests %s\n%s %s rchar %s\n", p, s, n, p, s, rb / n }
		$1 ~ /^[0-9]+$/ && $1 > 0 {
			e = $3; sub(/^syscalls:sys_/, "", e); sub(/^enter_/, "", e)
			if (e ~ /^exit_/) { sub(/^exit_/, "", e); e = e "_eagain" }
			if (e == "context-switches") e = "cs"
			printf "%s %s %s %.6f\n", p, s, e, $1 / n
		}' "$tmp/perf" >>"$tmp/data"
	awk -v p="$p" -v s="$s" '$1 == p && $2 == s && $3 != "requests" && $3 != "rchar" && $3 != "cs" && $3 !~ /_eagain$/ { t += $4 }
		END { printf "%-7s %-9s %6.2f system calls per request\n", p, s, t }' <(tail -n 60 "$tmp/data") >&2
}

date0=$(date -u '+%Y-%m-%d %H:%M UTC')
load0=$(cut -d' ' -f1-3 /proc/loadavg)
"${srvpin[@]}" "$tmp/syscost" >"$tmp/cost"
: >"$tmp/data"
for r in $(seq "$rounds"); do
	for p in $profiles; do
		for s in $(servers "$p"); do count "$p" "$s"; done
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p "$out"
keep=
[ -f "$out/syscalls.md" ] && keep=$(sed -n '/^<!-- notes -->$/,$p' "$out/syscalls.md")
{
	echo "# System calls per request"
	echo
	echo "$(uname -srm), $(nproc) cores, $date0; load average $load0 before, $load1 after. Each server pinned to core 0, the load (wrk, 1 thread; h2load for tls1) on core 1, the profiles of profiles.sh, $secs s a run (upload: $(updur) s), $rounds round(s) (medians)."
	echo
	echo "Command: \`$cmdline\`"
	echo
	echo "## Cost of a system call on this machine"
	echo
	echo "\`bench/floor/syscost.c\`, pinned to core 0, 200,000 calls each on a TCP loopback connection (ns a call):"
	echo
	echo "| call | ns |"
	echo "|---|---:|"
	awk '{printf "| %s | %s |\n", $1, $2}' "$tmp/cost"
	echo
	awk -v profiles="$profiles" '
function median(a, m,   i, j, t) { for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
{ k = $1 SUBSEP $2 SUBSEP $3; v[k, ++c[k]] = $4; seen[$1, $2] = 1; ev[$3] = 1 }
function med(p, s, e,   k, a, i) { k = p SUBSEP s SUBSEP e; if (!(k in c)) return 0
	for (i = 1; i <= c[k]; i++) a[i] = v[k, i]; return median(a, c[k]) }
END {
	print "## Per request\n"
	print "Calls per request (upload: per 20 MB body). read: read(2) and readv, with those that failed EAGAIN counted again under EAGAIN; recvfrom: brisk'"'"'s idle peek (MSG_PEEK), EAGAIN likewise; write: write(2), writev, sendto, sendmsg; epoll: epoll_pwait, epoll_pwait2, epoll_wait; sched: futex, nanosleep, sched_yield, tgkill, getpid, rt_sigreturn; file: sendfile, openat, fstat/newfstat/newfstatat/statx, lseek, pread64, fcntl; conn: accept4, setsockopt, getsockname, getpeername, shutdown, close, epoll_ctl; bytes/read: bytes read (rchar) per read call.\n"
	print "| profile | server | total | read | read EAGAIN | recvfrom | recvfrom EAGAIN | write | write EAGAIN | epoll | sched | file | conn | other | ctx switches | bytes/read |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	np = split(profiles, pr, " "); ns = split("brisk fasthttp nethttp nbio hertz floor", sv, " ")
	for (i = 1; i <= np; i++) for (j = 1; j <= ns; j++) {
		p = pr[i]; s = sv[j]; if (!((p, s) in seen)) continue
		delete g; tot = 0
		for (e in ev) { if (e == "requests" || e == "rchar" || e == "cs" || e ~ /_eagain$/) continue
			x = med(p, s, e); tot += x
			if (e == "read" || e == "readv") g["read"] += x
			else if (e == "recvfrom") g["recvfrom"] += x
			else if (e == "write" || e == "writev" || e == "sendto" || e == "sendmsg") g["write"] += x
			else if (e ~ /^epoll_(pwait|pwait2|wait)$/) g["epoll"] += x
			else if (e ~ /^(futex|nanosleep|sched_yield|tgkill|getpid|rt_sigreturn)$/) g["sched"] += x
			else if (e ~ /^(sendfile64|sendfile|openat|newfstat|newfstatat|fstat|statx|lseek|pread64|fcntl)$/) g["file"] += x
			else if (e ~ /^(accept4|accept|setsockopt|getsockname|getpeername|shutdown|close|epoll_ctl)$/) g["conn"] += x
			else { g["other"] += x; oth[p, s] = oth[p, s] sprintf(" %s %.3f", e, x) } }
		rd = g["read"] + g["recvfrom"]
		printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", p, s, tot,
			g["read"], med(p, s, "read_eagain"), g["recvfrom"], med(p, s, "recvfrom_eagain"), g["write"], med(p, s, "write_eagain"),
			g["epoll"], g["sched"], g["file"], g["conn"], g["other"], med(p, s, "cs"), rd ? sprintf("%.0f", med(p, s, "rchar") / rd) : "-"
	}
	print "\n## Every call, per request\n"
	for (i = 1; i <= np; i++) for (j = 1; j <= ns; j++) {
		p = pr[i]; s = sv[j]; if (!((p, s) in seen)) continue
		line = ""
		for (e in ev) { if (e == "requests" || e == "rchar") continue; x = med(p, s, e); if (x >= 0.005) line = line sprintf(" %s %.3f,", e, x) }
		printf "- %s %s (%d requests):%s\n", p, s, med(p, s, "requests"), substr(line, 1, length(line) - 1)
	}
}' "$tmp/data"
	if [ -n "$keep" ]; then echo; echo "$keep"; fi
} >"$out/syscalls.md.new"
mv "$out/syscalls.md.new" "$out/syscalls.md"
cat "$out/syscalls.md"
