package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/router"
)

// envAdminListener says, in a process started by a SIGHUP hand-over, that
// the last of the inherited listeners is the -admin one ("1").
const envAdminListener = "BRISK_ADMIN_LISTENER"

// adminFlagUsage documents -admin.
const adminFlagUsage = "serve /debug/pprof/, /metrics (with -metrics), /healthz and /readyz on a separate\n" +
	"listener at `host:port` (default none: pprof is not served, /metrics is on the public\n" +
	"listener); bind it to loopback or a private network, pprof shows the command line,\n" +
	"every goroutine's stack and takes CPU profiles on demand"

// listenAdmin returns the -admin listener, nil without -admin, and the
// public listeners: lns less the admin one when it was inherited from
// the process that handed its sockets over.
func (d *deployOptions) listenAdmin(lns []net.Listener) (admin net.Listener, public []net.Listener, err error) {
	if d.admin == "" {
		return nil, lns, nil
	}
	if os.Getenv(envAdminListener) == "1" && len(lns) > 1 {
		return lns[len(lns)-1], lns[:len(lns)-1], nil
	}
	admin, err = net.Listen("tcp", d.admin)
	if err != nil {
		return nil, nil, err
	}
	return admin, lns, nil
}

// warnEveryInterface warns on stderr when the admin listener ln listens
// on every interface (-admin ":6060" or "0.0.0.0:6060"): pprof then
// answers anyone who can reach the host, while the URL printed for it
// names localhost.
func (d *deployOptions) warnEveryInterface(ln net.Listener, stderr io.Writer) {
	if a, ok := ln.Addr().(*net.TCPAddr); ok && a.IP.IsUnspecified() {
		fmt.Fprintf(stderr, "brisk: warning: -admin %s listens on every network interface: anyone who can reach "+
			"this host can read /debug/pprof/ (command line, goroutine stacks, CPU profiles); bind it to "+
			"127.0.0.1 or a private address\n", d.admin)
	}
}

// adminServer returns the server of the -admin listener: net/http/pprof
// under /debug/pprof/, /metrics when -metrics is on, /healthz, and
// srv's /readyz (503 while srv drains). Its requests are not in srv's
// metrics. It has no write timeout: a CPU profile or a trace writes
// nothing until its -seconds have passed; a request's context is
// cancelled when its client closes the connection, which ends such a
// profile or trace early (net/http/pprof waits on it), as on net/http.
func (d *deployOptions) adminServer(srv *brisk.Server) *brisk.Server {
	r := router.New()
	r.Handle("/debug/pprof/", brisk.FromHTTP(pprofMux()))
	if d.metricsHandler != nil {
		r.Handle("GET /metrics", d.metricsHandler)
	}
	r.Handle("GET /healthz", func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain; charset=utf-8")
		c.Response.SetBodyString("ok\n")
	})
	r.Handle("GET /readyz", srv.ReadinessHandler)
	return &brisk.Server{Handler: r.Serve, Name: srv.Name, Logger: srv.Logger, ReadTimeout: bodyTimeout}
}

// pprofMux serves net/http/pprof's pages, profiles and traces.
func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// shutdownAdmin stops the admin server, if any, within ctx; a profile
// still being taken ends early (pprof stops on the request's context).
func shutdownAdmin(ctx context.Context, admin *brisk.Server) {
	if admin != nil {
		admin.Shutdown(ctx)
	}
}
