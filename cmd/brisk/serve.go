package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/cmd/brisk/internal/site"
)

// bodyTimeout and writeTimeout bound reading a request body and each write
// of a response on this server, which faces clients it does not know: the
// library leaves both unbounded by default (brisk.Server), so that a
// client sending a body one byte a minute is cut off here. Files of -root
// are streamed in 32 KiB writes, so writeTimeout bounds the wait for each
// piece, never a whole download.
const (
	bodyTimeout  = 30 * time.Second
	writeTimeout = 30 * time.Second
)

// serveOptions are the flags of `brisk serve`.
type serveOptions struct {
	addr string // TCP address to listen on
	root string // directory served under /static/; "" for the embedded files
	echo bool   // every path answers in the echo format
	log  bool   // one access-log line per request
	compressOptions
	tlsOptions
	observe observeOptions // -log-format, -log-level (observe.go)
	h3      h3Options      // -h3 (serveh3.go)

	deploy  deployOptions   // load balancers, restarts, metrics (deploy.go)
	ops     operatorOptions // limits, timeouts, shutdown (serveflags.go)
	signals *stopSignals    // nil: stop only when the context is done
}

// runServe is `brisk serve`: it serves until SIGINT, SIGTERM or a
// SIGHUP restart.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "[-addr host:port] [-root DIR] [-echo] [-log [-log-format F]] [-log-level L] [-tls | -cert FILE -key FILE | -h2c] [-h3] [deployment flags]",
		"Serve the default site (/, /plaintext, /json, /echo, /healthz, /readyz, /hello/{name},\n"+
			"/static/..., /ws) over HTTP/1.1 (HTTPS and HTTP/2 with -tls, -cert or -h2c; HTTP/3 with -h3). SIGINT shuts\n"+
			"down gracefully; SIGTERM drains first (/readyz answers 503, every response closes its\n"+
			"connection) then shuts down; SIGHUP restarts without dropping a request: a new process\n"+
			"inherits the listening sockets, then this one drains (refused as PID 1, a container's\n"+
			"init). Under systemd socket activation (LISTEN_FDS) the sockets passed replace -addr.\n\n"+
			"Profiling (/debug/pprof/) is never served on the public listener: only with -admin ADDR,\n"+
			"on a separate plain-HTTP listener that also serves /healthz, /readyz and, with -metrics,\n"+
			"/metrics (then not on the public one). There is no admin listener unless asked.", stderr)
	var o serveOptions
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen on the TCP `address` host:port (port 0 picks a free port)")
	fs.StringVar(&o.root, "root", "", "serve the files of `DIR` under /static/ instead of the embedded ones")
	fs.BoolVar(&o.echo, "echo", false, "answer every path with the request as parsed, in the JSON echo format")
	fs.BoolVar(&o.log, "log", false, "write an access-log line per request to stderr, rejected requests included")
	o.compressOptions.register(fs)
	o.tlsOptions.register(fs)
	o.h3.register(fs)
	o.deploy.addFlags(fs)
	o.ops.addFlags(fs)
	o.observe.addFlags(fs)
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "brisk serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	o.signals = notifyStop()
	defer o.signals.stop()
	return serve(context.Background(), o, stdout, stderr)
}

// serve listens on o.addr, prints the URL it serves on stdout and serves
// until ctx is done, then shuts the server down gracefully. Errors are one
// line on stderr.
func serve(ctx context.Context, o serveOptions, stdout, stderr io.Writer) int {
	st, err := site.New(site.Config{Root: o.root, Echo: o.echo, Compress: o.compress})
	if err != nil {
		fmt.Fprintf(stderr, "brisk: %v\n", err)
		return exitFail
	}
	defer st.Close()
	logger := o.observe.logger(stderr)
	srv := &brisk.Server{Handler: st.Handle, Name: "brisk", Logger: logger,
		ReadTimeout: bodyTimeout, WriteTimeout: writeTimeout}
	o.ops.apply(srv)
	if o.log {
		o.observe.installLog(srv, logger, stderr)
	}
	o.deploy.configure(srv) // before h2.Configure copies srv.Handler
	if err := cmp.Or(o.h3.check(o.https()), o.configure(srv)); err != nil {
		fmt.Fprintf(stderr, "brisk: %v\n", err)
		return exitFail
	}
	defer o.closeTLS()

	lns, err := o.deploy.listen(o.addr)
	if err != nil {
		fmt.Fprintf(stderr, "brisk: %v\n", err)
		return exitFail
	}
	adminLn, lns, err := o.deploy.listenAdmin(lns)
	if err != nil {
		for _, ln := range lns {
			ln.Close()
		}
		fmt.Fprintf(stderr, "brisk: admin listener: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "brisk: serving %s\n", o.url(lns[0].Addr()))
	if note := o.note(); note != "" {
		fmt.Fprintln(stdout, note)
	}
	served := make(chan error, len(lns)+2)
	stopH3, err := o.h3.start(srv, lns[0].Addr(), stdout, served)
	if err != nil {
		for _, ln := range lns {
			ln.Close()
		}
		fmt.Fprintf(stderr, "brisk: %v\n", err)
		return exitFail
	}
	defer stopH3()
	r := running{srv: srv, lns: lns, adminLn: adminLn, served: served, serveOn: o.serveOn,
		deploy: &o.deploy, signals: o.signals, timeout: o.ops.shutdownDeadline()}
	return r.run(ctx, stdout, stderr)
}

// shutdown stops srv gracefully within timeout (-shutdown-timeout),
// after draining it when asked (brisk.Server.Drain), then the admin
// server (nil: none), which serves /readyz meanwhile. Responses still
// going at the deadline are cut by srv.Close, which logs each.
func shutdown(srv *brisk.Server, admin *brisk.Server, drain bool, timeout time.Duration, stderr io.Writer) int {
	fmt.Fprintln(stderr, "brisk: shutting down")
	stop := srv.Shutdown
	if drain {
		stop = srv.Drain
		if d := cmp.Or(srv.DrainDelay, brisk.DefaultDrainDelay); d > 0 {
			timeout += d // the connections get the timeout after it
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	defer shutdownAdmin(ctx, admin)
	if err := stop(ctx); err != nil {
		fmt.Fprintf(stderr, "brisk: shutdown: %v after %v; cutting the responses still going\n", err, timeout)
		cutResponses(srv)
		return exitFail
	}
	return exitOK
}

// cutWait is how long the connections closed by Close get to log the
// responses they cut (and to write their access-log lines).
const cutWait = time.Second

// cutResponses closes srv's connections and waits up to cutWait for
// their goroutines to end.
func cutResponses(srv *brisk.Server) {
	srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), cutWait)
	defer cancel()
	srv.Shutdown(ctx)
}

// baseURL returns the http URL of the root of a listener address; an
// unspecified host (0.0.0.0, ::) is shown as localhost.
func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
