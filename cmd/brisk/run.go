package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/brisk-http/brisk"
)

// running is what serve and proxy share once they listen: the server,
// its listeners, and how it is served and stopped.
type running struct {
	srv     *brisk.Server
	lns     []net.Listener // the public listeners: at least one
	adminLn net.Listener   // -admin; nil for none
	served  chan error     // a Serve that returned; room for every server

	serveOn func(*brisk.Server, net.Listener) error // TLS or plain (servetls.go)
	deploy  *deployOptions
	signals *stopSignals
	timeout time.Duration // -shutdown-timeout, resolved
}

// run serves r.srv on every listener and the admin server on r.adminLn
// until a server fails, ctx is done or a signal comes (stopSignals), then
// shuts down (shutdown); it returns the exit code.
func (r *running) run(ctx context.Context, stdout, stderr io.Writer) int {
	for _, ln := range r.lns {
		go func() { r.served <- r.serveOn(r.srv, ln) }()
	}
	var admin *brisk.Server
	if r.adminLn != nil {
		admin = r.deploy.adminServer(r.srv)
		fmt.Fprintf(stdout, "brisk: admin (pprof, metrics, health) on %s\n", baseURL(r.adminLn.Addr()))
		r.deploy.warnEveryInterface(r.adminLn, stderr)
		go func() { r.served <- admin.Serve(r.adminLn) }()
	}
	r.deploy.notifyServing(stderr)
	type stopped struct{ drain, handedOver bool }
	stop := make(chan stopped, 1)
	go func() {
		drain, handedOver := r.signals.wait(ctx, r.lns, r.adminLn, stderr)
		stop <- stopped{drain, handedOver}
	}()
	select {
	case err := <-r.served:
		fmt.Fprintf(stderr, "brisk: %v\n", err)
		return exitFail
	case s := <-stop:
		if s.handedOver {
			for _, ln := range r.lns {
				ln.Close() // the new process accepts from now on
			}
			if r.adminLn != nil {
				r.adminLn.Close()
			}
			// It is ready already: no one to tell. Drain still closes an
			// idle connection only once its client has been quiet.
			r.srv.DrainDelay = -1
		}
		return shutdown(r.srv, admin, s.drain, r.timeout, stderr)
	}
}
