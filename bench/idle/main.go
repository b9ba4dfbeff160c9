// Command idle measures the memory each server holds per idle keep-alive
// connection, for brisk, fasthttp and net/http in one run.
//
// For each server it starts a child process (itself, with -server NAME)
// so that every server's resident set is measured apart. The child serves
// 200, Content-Type: text/plain, "Hello, World!" on a loopback port, with
// every server's idle timeout set to 10 minutes so that none closes a
// connection during the run. The parent, which holds all client
// connections:
//  1. warms the server up with a few short connections (so that code pages
//     and first-use allocations are not counted), then asks the child for a
//     baseline: after runtime.GC and debug.FreeOSMemory, VmRSS from
//     /proc/self/status, the Go heap and stack in use and the runtime's
//     other off-heap memory (MemStats.OtherSys, mostly the poller's
//     pollDescs: about 0.6 KB for each fd the runtime polled at once,
//     kept for reuse and never freed);
//  2. opens -n connections, sends one request on each and reads the
//     response, keeping the connections open and idle;
//  3. waits -settle, asks for the same figures again, and reports the
//     growth divided by -n, in KB (1 KB = 1024 bytes) per connection, with
//     the ratio to fasthttp.
//
// The open-file soft limit is raised to the hard limit; -n is lowered (with
// a warning) when it still does not fit. Each server's run is bounded by
// -timeout, after which its child is killed.
//
// Usage: go run ./idle [-n 9000] [-servers brisk,brisk-nopark,fasthttp,nethttp,nbio] [-settle 6s] [-timeout 3m]
//
// With -hold ADDR it only opens -n idle keep-alive connections to a
// running server (one request each), prints "held N" and holds them until
// stdin ends.
//
// -servers also accepts fasthttp-reduce (fasthttp with ReduceMemoryUsage),
// brisk-nopark (brisk with Server.NoParkIdle: brisk, with its defaults,
// parks idle connections), brisk-park-now (brisk with ParkIdleAfter -1:
// parked at once) and nbio (nbhttp, a net/http
// handler on an event loop).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

func main() {
	server := flag.String("server", "", "run as the child serving with this `server` (internal)")
	hold := flag.String("hold", "", "only open -n idle connections to this `address` and hold them until stdin ends (for bench/parke2e.sh)")
	n := flag.Int("n", 9000, "number of idle keep-alive `connections`")
	servers := flag.String("servers", "brisk,fasthttp,nethttp", "comma-separated `list` of servers to measure")
	settle := flag.Duration("settle", 6*time.Second, "wait after opening the connections before measuring (brisk: ParkIdleAfter, then two sweeps)")
	timeout := flag.Duration("timeout", 3*time.Minute, "bound on each server's run; its child is then killed")
	flag.Parse()
	limit := raiseFileLimit()
	if *server != "" {
		if err := serveChild(*server); err != nil {
			fmt.Fprintln(os.Stderr, "idle child:", err)
			os.Exit(1)
		}
		return
	}
	if *hold != "" {
		if err := holdConns(*hold, *n); err != nil {
			fmt.Fprintln(os.Stderr, "idle -hold:", err)
			os.Exit(1)
		}
		return
	}
	if max := int(limit) - 64; *n > max {
		fmt.Fprintf(os.Stderr, "idle: open-file limit %d: measuring %d connections instead of %d\n", limit, max, *n)
		*n = max
	}
	var results []result
	for _, name := range strings.Split(*servers, ",") {
		r, err := measure(name, *n, *settle, *timeout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "idle: %s: %v\n", name, err)
			os.Exit(1)
		}
		results = append(results, r)
	}
	report(os.Stdout, results)
}

// raiseFileLimit raises the soft open-file limit to the hard limit and
// returns the soft limit in force.
func raiseFileLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 1024
	}
	if rl.Cur < rl.Max {
		want := rl
		want.Cur = want.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want) == nil {
			return want.Cur
		}
	}
	return rl.Cur
}
