#!/usr/bin/env bash
# clientsyscalls.sh: system calls and context switches per request of the
# client benchmarks, per process, counted with perf tracepoints (no
# ptrace: unlike strace, it barely changes the timing it measures).
#
# Usage: bench/clientsyscalls.sh [PATTERN...]
#   PATTERN  go test -bench regexp, one run each (default: the brisk and
#            fasthttp tcp and tcpchild twins and BenchmarkClientGetFloor)
#   N        requests per run (-benchtime Nx, default 20000)
#
# Needs perf and access to the syscalls and sched tracepoints (root, or
# perf_event_paranoid <= -1). For each run it prints the benchmark line,
# then one line per process that made more than N system calls (the
# benchmark process; with tcpchild also the server child): the count per
# request of each system call made at least 0.02 times per request, and
# ctxsw (sched_switch away from the process's threads). Over tcp the one
# process holds client and server; over tcpchild the first process is
# the client alone.
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
n=${N:-20000}
if [ $# -eq 0 ]; then
	set -- 'BenchmarkClientGetEndToEnd$/brisk/tcp$' 'BenchmarkClientGetEndToEnd$/fasthttp/tcp$' 'BenchmarkClientGetFloor/tcp$' \
		'BenchmarkClientGetEndToEnd$/brisk/tcpchild$' 'BenchmarkClientGetEndToEnd$/fasthttp/tcpchild$' 'BenchmarkClientGetFloor/tcpchild$'
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$bench" && go test -c -o "$tmp/bench.test" .)

for pattern in "$@"; do
	(cd "$bench" && perf record -q -m 2048 -o "$tmp/perf.data" -e 'syscalls:sys_enter_*' -e sched:sched_switch -- \
		"$tmp/bench.test" -test.run '^$' -test.bench "$pattern" -test.benchtime "${n}x" -test.benchmem) | grep '^Benchmark'
	# pid and event name ("syscalls:sys_enter_read:" or "sched:sched_switch:").
	perf script -i "$tmp/perf.data" -F pid,event 2>/dev/null | awk -v n="$n" '
	{
		ev = $2; sub(/:$/, "", ev); sub(/^syscalls:sys_enter_/, "", ev); sub(/^sched:sched_switch$/, "ctxsw", ev)
		c[$1 " " ev]++; tot[$1]++
	}
	END {
		for (k in c) {
			split(k, a, " ")
			if (tot[a[1]] > n && c[k] / n >= 0.02) printf "%s %s %.2f\n", a[1], a[2], c[k] / n
		}
	}' | sort -k1,1n -k3,3gr | awk '
	$1 != pid { if (pid != "") print line; pid = $1; line = "  pid " pid ":" }
	{ line = line " " $2 " " $3 }
	END { if (pid != "") print line }'
	# Events dropped by a full buffer make the counts too low.
	perf report -i "$tmp/perf.data" --stats 2>/dev/null | awk '/LOST/ && $3 + 0 > 0 { print "  warning: perf lost events, counts too low:", $0 }'
done
