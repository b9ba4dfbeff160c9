# lib.sh: what the end-to-end scripts (e2e.sh, files.sh, parke2e.sh,
# router_e2e.sh) share; each sources it after reading its options. It sets:
#   bench          this directory; out, its results/ directory
#   tmp            a temporary directory, removed on exit
#   pid, port      maps from a server's name to its pid and port: every
#                  pid in the map is killed on exit
#   srvpin, loadpin  taskset prefixes pinning the server to core 0 and the
#                  load generator to core 1 (empty, with a warning, with
#                  fewer than two cores)
# installs wrk when it is missing, and defines cputicks PID: the process's
# utime+stime in clock ticks (/proc/PID/stat).

bench=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$bench/results
tmp=$(mktemp -d)
declare -A pid port
cleanup() {
	for s in "${!pid[@]}"; do kill "${pid[$s]}" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

if ! command -v wrk >/dev/null; then
	echo "installing wrk" >&2
	(apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
srvpin=() loadpin=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	srvpin=(taskset -c 0) loadpin=(taskset -c 1)
else
	echo "warning: fewer than 2 cores or no taskset: server and load are not pinned" >&2
fi

cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
