package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/valyala/fasthttp"
)

// idleTimeout is every server's keep-alive idle timeout: longer than any run.
const idleTimeout = 10 * time.Minute

const helloBody = "Hello, World!"

// serveChild runs the named server on a loopback port, prints
// "addr HOST:PORT", then answers each "measure" line on stdin with a
// "mem" line (see memLine). It returns when stdin ends.
func serveChild(name string) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	serve, err := childServer(name)
	if err != nil {
		return err
	}
	go func() {
		err := serve(ln)
		fmt.Fprintln(os.Stderr, "idle child: serve:", err)
		os.Exit(1)
	}()
	fmt.Printf("addr %s\n", ln.Addr())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() == "measure" {
			fmt.Println(memLine())
		}
	}
	return nil
}

// childServer returns the Serve function of the named server.
func childServer(name string) (func(net.Listener) error, error) {
	body := []byte(helloBody)
	switch name {
	case "brisk", "brisk-nopark", "brisk-park-now":
		h := func(c *brisk.Ctx) {
			c.Response.Header.Set("Content-Type", "text/plain")
			c.Response.SetBodyString(helloBody)
		}
		s := &brisk.Server{Handler: h, IdleTimeout: idleTimeout, NoParkIdle: name == "brisk-nopark",
			Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))}
		if name == "brisk-park-now" {
			s.ParkIdleAfter = -1
		}
		return s.Serve, nil
	case "nbio":
		return serveNbio, nil
	case "fasthttp", "fasthttp-reduce":
		h := func(c *fasthttp.RequestCtx) {
			c.Response.Header.SetContentType("text/plain")
			c.Response.SetBody(body)
		}
		s := &fasthttp.Server{Handler: h, IdleTimeout: idleTimeout,
			ReduceMemoryUsage: name == "fasthttp-reduce"}
		return s.Serve, nil
	case "nethttp":
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(body)
		}
		s := &http.Server{Handler: http.HandlerFunc(h), IdleTimeout: idleTimeout,
			ErrorLog: log.New(io.Discard, "", 0)}
		return s.Serve, nil
	}
	return nil, fmt.Errorf("unknown server %q", name)
}

// memLine collects garbage, returns freed memory to the OS and reports
// "mem RSS_KB HEAP_BYTES STACK_BYTES OTHER_BYTES GOROUTINES": VmRSS, the
// Go heap and goroutine stacks in use, and the runtime's other off-heap
// memory (MemStats.OtherSys: among others the poller's pollDescs, which
// the runtime keeps for reuse and never frees).
func memLine() string {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return fmt.Sprintf("mem %d %d %d %d %d", rssKB(), ms.HeapInuse, ms.StackInuse, ms.OtherSys, runtime.NumGoroutine())
}

// rssKB returns VmRSS of this process in KB, or -1.
func rssKB() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range bytes.Lines(status) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			v = bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))
			kb, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				return -1
			}
			return kb
		}
	}
	return -1
}
