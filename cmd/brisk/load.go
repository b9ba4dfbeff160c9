package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/brisk-http/brisk/load"
	"golang.org/x/term"
)

// headerFlags collects the repeatable -H flag.
type headerFlags []string

func (h *headerFlags) String() string     { return strings.Join(*h, ", ") }
func (h *headerFlags) Set(s string) error { *h = append(*h, s); return nil }

// runLoad is `brisk load URL`: it loads URL, then prints the report. It
// exits 1 when no request got a 2xx response, and at once, with the
// cause on stderr, when the first connection cannot be opened.
func runLoad(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("load", "[flags] URL",
		"Send HTTP/1.1 requests to URL over -c connections for -d (or until -n requests\n"+
			"are done) and report latency percentiles, throughput and errors by kind.\n"+
			"With -rate, requests follow a fixed schedule and latency counts from each\n"+
			"request's intended send time (coordinated-omission correction).", stderr)
	var c load.Config
	var headers headerFlags
	var bodyFile string
	var asJSON bool
	fs.IntVar(&c.Connections, "c", load.DefaultConnections, "number of concurrent `connections`, at least 1")
	fs.DurationVar(&c.Duration, "d", 0, "run for this `duration` (default 10s unless -n is set)")
	fs.Int64Var(&c.Requests, "n", 0, "stop after this many `requests` in total (0: no limit)")
	fs.IntVar(&c.Pipeline, "p", 1, "pipelining `depth`: requests in flight per connection, at least 1")
	fs.StringVar(&c.Method, "m", load.DefaultMethod, "request `method`")
	fs.Var(&headers, "H", "add a header `\"Name: value\"` (repeatable)")
	body := fs.String("body", "", "request body `text`")
	fs.StringVar(&bodyFile, "body-file", "", "send `file` as the request body, read from the file for each request")
	fs.StringVar(&c.Proxy, "x", "", "send the load through the HTTP `proxy` http://[user:password@]host[:port]")
	fs.BoolVar(&c.HTTP10, "http10", false, "send HTTP/1.0 requests")
	fs.DurationVar(&c.Timeout, "timeout", 10*time.Second, "per-request `timeout` (0: none)")
	fs.Float64Var(&c.Rate, "rate", 0, "target total `rate` in requests/s (0: as fast as possible)")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "brisk load: missing URL")
		fs.Usage()
		return exitUsage
	}
	c.URL = fs.Arg(0)
	if code, done := parse(fs, fs.Args()[1:], stdout); done { // flags after the URL
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "brisk load: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	// The library reads zero as its default; on the command line a zero
	// is a mistake, not a request for the default.
	if c.Connections < 1 || c.Pipeline < 1 {
		fmt.Fprintf(stderr, "brisk load: -c and -p must be at least 1 (got -c %d, -p %d)\n", c.Connections, c.Pipeline)
		return exitUsage
	}
	c.Header = headers
	c.Body = []byte(*body)
	c.BodyFile = bodyFile

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var progress io.Writer
	if f, ok := stdout.(*os.File); ok && !asJSON && term.IsTerminal(int(f.Fd())) {
		progress = stdout
	}
	res, err := load.Run(ctx, c, progress)
	if err != nil {
		fmt.Fprintf(stderr, "brisk %v\n", err) // "brisk load: ..."
		if errors.As(err, new(*load.ConnectError)) {
			return exitFail
		}
		return exitUsage
	}
	if asJSON {
		err = res.WriteJSON(stdout)
	} else {
		err = res.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "brisk load: %v\n", err)
		return exitFail
	}
	if res.Status[2] == 0 {
		return exitFail
	}
	return exitOK
}
