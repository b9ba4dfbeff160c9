package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/reverseproxy"
)

// proxyOptions are the flags of `brisk proxy`.
type proxyOptions struct {
	listen string             // TCP address to listen on
	log    bool               // one access-log line per request
	p      reverseproxy.Proxy // Upstreams, timeouts, forwarding
	tlsOptions

	deploy   deployOptions
	shutdown operatorOptions // only -shutdown-timeout (serveflags.go)
	signals  *stopSignals
}

// runProxy is `brisk proxy`: a reverse proxy in front of the -to
// upstreams, until SIGINT, SIGTERM or a SIGHUP restart (as serve).
func runProxy(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("proxy", "-to URL[,URL...] [-listen host:port] [-balance least-pending|round-robin] [-log] [-tls | -cert FILE -key FILE | -h2c] [deployment flags]",
		"Forward every request to one of the -to upstreams (HTTP/1.1 over keep-alive connections,\n"+
			"\"https\" ones with TLS) and relay the responses, streaming bodies both ways, with\n"+
			"hop-by-hop fields removed and Via and X-Forwarded-For/-Proto/-Host added (see package\n"+
			"reverseproxy). An upstream that fails is left alone for 3 s (with -health-check, until\n"+
			"its check passes); an idempotent request that failed before any response byte is sent\n"+
			"to another. WebSocket and other upgrades pass through; CONNECT is refused. /readyz\n"+
			"(and /metrics with -metrics and no -admin) are answered by the proxy itself; -metrics\n"+
			"adds brisk_proxy_upstream_requests_total{upstream,status}, _response_head_seconds\n"+
			"{upstream} and _errors_total{upstream,phase} to the server's metrics. Signals and the\n"+
			"deployment flags work as for `brisk serve`.", stderr)
	var o proxyOptions
	fs.StringVar(&o.listen, "listen", "127.0.0.1:8080", "listen on the TCP `address` host:port (port 0 picks a free port)")
	fs.Func("to", "the upstream `URLs`, comma-separated: http://host:port or https://host:port", func(v string) error {
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				o.p.Upstreams = append(o.p.Upstreams, u)
			}
		}
		return nil
	})
	fs.Func("balance", "how to spread requests: least-pending (default) or round-robin", func(v string) error {
		switch v {
		case "least-pending":
			o.p.Balance = reverseproxy.LeastPending
		case "round-robin":
			o.p.Balance = reverseproxy.RoundRobin
		default:
			return fmt.Errorf("%q is not least-pending or round-robin", v)
		}
		return nil
	})
	fs.DurationVar(&o.p.DialTimeout, "dial-timeout", reverseproxy.DefaultDialTimeout, "bound on connecting to an upstream")
	fs.DurationVar(&o.p.ResponseHeaderTimeout, "response-header-timeout", reverseproxy.DefaultResponseHeaderTimeout, "bound on an attempt until the upstream's response head")
	fs.DurationVar(&o.p.IdleTimeout, "idle-timeout", reverseproxy.DefaultIdleTimeout, "bound on a response body or upgraded connection without a byte")
	fs.Func("forward", "forwarding fields to add: a comma-separated list of x-forwarded, forwarded, via, or none (default x-forwarded,via)", func(v string) error {
		f, err := parseForwarding(v)
		o.p.Forwarding = f
		return err
	})
	fs.StringVar(&o.p.HealthCheck, "health-check", "", "check each upstream with GET `path` every -health-interval; a failing one gets no request")
	fs.DurationVar(&o.p.HealthInterval, "health-interval", reverseproxy.DefaultHealthInterval, "time between two health checks of an upstream")
	fs.BoolVar(&o.log, "log", false, "write an access-log line per request to stderr, with its upstream, status and timings")
	o.tlsOptions.register(fs)
	o.deploy.addFlags(fs)
	fs.DurationVar(&o.shutdown.shutdownTimeout, "shutdown-timeout", defaultShutdownTimeout,
		"on SIGINT or SIGTERM (after -drain-delay), or after a SIGHUP restart, give the requests in flight `duration` to finish, then cut and log each response still going (0: 10s; negative: no limit)")
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "brisk proxy: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	case len(o.p.Upstreams) == 0:
		fmt.Fprintln(stderr, "brisk proxy: -to is required (run 'brisk proxy -h' for usage)")
		return exitUsage
	}
	o.signals = notifyStop()
	defer o.signals.stop()
	return runProxyServer(context.Background(), &o, stdout, stderr)
}

// parseForwarding parses the -forward list.
func parseForwarding(v string) (reverseproxy.Forwarding, error) {
	var f reverseproxy.Forwarding
	for _, s := range strings.Split(v, ",") {
		switch strings.TrimSpace(strings.ToLower(s)) {
		case "x-forwarded":
			f |= reverseproxy.ForwardXForwarded
		case "forwarded":
			f |= reverseproxy.ForwardForwarded
		case "via":
			f |= reverseproxy.ForwardVia
		case "none":
			f |= reverseproxy.ForwardNone
		default:
			return 0, fmt.Errorf("%q is not x-forwarded, forwarded, via or none", s)
		}
	}
	return f, nil
}

// runProxyServer serves the proxy on o.listen until ctx is done or a
// signal, with serve's deployment helpers (listeners, admin, hand-over,
// drain), and prints the URL it serves on stdout.
func runProxyServer(ctx context.Context, o *proxyOptions, stdout, stderr io.Writer) int {
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	if err := o.p.Check(); err != nil {
		fmt.Fprintf(stderr, "brisk: %v\n", err)
		return exitUsage
	}
	if o.log {
		o.p.OnComplete = logProxied(logger)
	}
	defer o.p.Close()
	srv := &brisk.Server{Handler: o.p.Serve, Name: "brisk", Logger: logger,
		ReadTimeout: bodyTimeout, WriteTimeout: writeTimeout}
	if o.log {
		srv.OnReject = logRejected(logger)
	}
	o.deploy.configure(srv)
	if o.deploy.registry != nil { // -metrics
		o.p.OnComplete = chainComplete(o.p.OnComplete, newProxyMetrics(o.deploy.registry).observe)
	}
	if err := o.configure(srv); err != nil {
		fmt.Fprintf(stderr, "brisk: %v\n", err)
		return exitFail
	}
	lns, err := o.deploy.listen(o.listen)
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
	fmt.Fprintf(stdout, "brisk: proxying %s to %s\n", o.url(lns[0].Addr()), strings.Join(o.p.Upstreams, ", "))
	if note := o.note(); note != "" {
		fmt.Fprintln(stdout, note)
	}
	r := running{srv: srv, lns: lns, adminLn: adminLn, served: make(chan error, len(lns)+1), serveOn: o.serveOn,
		deploy: &o.deploy, signals: o.signals, timeout: o.shutdown.shutdownDeadline()}
	return r.run(ctx, stdout, stderr)
}

// logProxied returns the access-log hook of `brisk proxy -log`: one line
// per request, with its upstream, the upstream's status and the time of
// each phase.
func logProxied(logger *slog.Logger) func(*brisk.Ctx, *reverseproxy.Record) {
	return func(c *brisk.Ctx, r *reverseproxy.Record) {
		attrs := []any{"remote", addrString(c.RemoteAddr()), "method", logSafeString(c.Request.Method()),
			"target", logSafeString(c.Request.Target()), "status", c.Response.StatusCode(),
			"upstream", r.Upstream, "upstream_status", r.Status, "attempts", r.Attempts,
			"dial", r.Dial.Round(time.Microsecond), "tls", r.TLS.Round(time.Microsecond),
			"head", r.Head.Round(time.Microsecond), "total", r.Total.Round(time.Microsecond), "sent", r.Sent}
		if r.Upgraded {
			attrs = append(attrs, "upgraded", true)
		}
		if r.Err != nil {
			attrs = append(attrs, "err", r.Err.Error())
			logger.Warn("proxy", attrs...)
			return
		}
		logger.Info("proxy", attrs...)
	}
}

// logSafeString returns b for a log attribute, with bytes outside
// printable ASCII escaped.
func logSafeString(b []byte) string {
	s := fmt.Sprintf("%q", b)
	return s[1 : len(s)-1]
}
