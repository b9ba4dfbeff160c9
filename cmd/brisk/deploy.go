package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/listen"
	"github.com/brisk-http/brisk/metrics"
	"github.com/brisk-http/brisk/reuseport"
	"github.com/prometheus/client_golang/prometheus"
)

// The socket hand-over: a process restarted by SIGHUP passes its
// listening sockets to the new process as inherited file descriptors 3,
// 4, ...; envListenFDs says how many, and the descriptor after them is a
// pipe the new process closes once it serves, so the old one knows when
// to drain.
const (
	envListenFDs   = "BRISK_LISTEN_FDS"
	handoverWait   = 10 * time.Second // for the new process to serve
	firstInherited = 3
)

// deployOptions are the flags of `brisk serve` for running behind load
// balancers.
type deployOptions struct {
	reusePort int                   // SO_REUSEPORT listeners; 0: one plain listener
	proxyFrom prefixList            // -proxy-protocol
	trusted   prefixList            // -trusted-proxies
	ipField   brisk.ForwardingField // -client-ip-field
	drainWait time.Duration         // -drain-delay
	metricsOn bool                  // -metrics
	pidFile   string                // -pidfile
	admin     string                // -admin: address of the admin listener; "": none
	registry  *prometheus.Registry

	metricsHandler brisk.Handler // /metrics with -metrics; nil without
}

// prefixList is a flag value: CIDR[,CIDR...]; a bare address is a /32 or
// /128.
type prefixList []netip.Prefix

func (p *prefixList) String() string {
	var s []string
	for _, x := range *p {
		s = append(s, x.String())
	}
	return strings.Join(s, ",")
}

func (p *prefixList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return fmt.Errorf("%q is not a CIDR or an address", f)
			}
			*p = append(*p, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		x, err := netip.ParsePrefix(f)
		if err != nil {
			return fmt.Errorf("%q is not a CIDR", f)
		}
		*p = append(*p, x.Masked())
	}
	return nil
}

// setIPField sets -client-ip-field, a field name in any case.
func (d *deployOptions) setIPField(v string) error {
	for _, f := range []brisk.ForwardingField{brisk.FieldXForwardedFor, brisk.FieldForwarded, brisk.FieldXRealIP} {
		if strings.EqualFold(v, string(f)) {
			d.ipField = f
			return nil
		}
	}
	return fmt.Errorf("%q is not X-Forwarded-For, Forwarded or X-Real-IP", v)
}

func (d *deployOptions) addFlags(fs *flag.FlagSet) {
	fs.IntVar(&d.reusePort, "reuseport", 0, "listen on `N` SO_REUSEPORT sockets, each with its own accept loop (0: one plain socket)")
	fs.Var(&d.proxyFrom, "proxy-protocol", "require a PROXY v1/v2 header from the proxies in `CIDR[,CIDR...]`; refuse one from others")
	fs.Var(&d.trusted, "trusted-proxies", "believe the -client-ip-field of the peers in `CIDR[,CIDR...]`")
	fs.Func("client-ip-field", "the `field` the -trusted-proxies write the client's address in: X-Forwarded-For (default), Forwarded or X-Real-IP", d.setIPField)
	fs.DurationVar(&d.drainWait, "drain-delay", brisk.DefaultDrainDelay, "on SIGTERM, serve with /readyz answering 503 for at least `duration` before shutting down")
	fs.BoolVar(&d.metricsOn, "metrics", false, "serve Prometheus metrics on /metrics")
	fs.StringVar(&d.pidFile, "pidfile", "", "write the process ID to `FILE` once serving (rewritten by each SIGHUP restart)")
	fs.StringVar(&d.admin, "admin", "", adminFlagUsage) // admin.go
}

// configure applies the options to srv and wraps its Handler with
// /readyz (503 while draining) and, with -metrics but no -admin listener,
// /metrics.
func (d *deployOptions) configure(srv *brisk.Server) {
	if len(d.proxyFrom) > 0 {
		srv.ProxyProtocol = &brisk.ProxyProtocol{Trusted: d.proxyFrom}
	}
	srv.TrustedProxies, srv.ClientIPField = d.trusted, d.ipField
	srv.DrainDelay = d.drainWait
	if d.drainWait == 0 {
		srv.DrainDelay = -1 // -drain-delay 0: none
	}
	next := srv.Handler
	var metricsHandler brisk.Handler
	if d.metricsOn {
		d.registry = prometheus.NewRegistry()
		installMetrics(srv, d.registry) // observe.go
		d.metricsHandler = metrics.Handler(d.registry)
		if d.admin == "" {
			metricsHandler = d.metricsHandler
		}
	}
	srv.Handler = func(c *brisk.Ctx) {
		switch p := string(c.Request.Path()); {
		case p == "/readyz":
			srv.ReadinessHandler(c)
		case p == "/metrics" && metricsHandler != nil:
			metricsHandler(c)
		default:
			next(c)
		}
	}
}

// listen returns the listeners inherited from the process that handed
// them over, else those systemd passed (socket activation; addr is then
// not used), else opens them on addr.
func (d *deployOptions) listen(addr string) ([]net.Listener, error) {
	if v := os.Getenv(envListenFDs); v != "" {
		return inheritedListeners(v)
	}
	if lns, err := systemdListeners(); err != nil || lns != nil {
		return lns, err
	}
	if d.reusePort > 0 {
		return reuseport.Listen("tcp", addr, d.reusePort)
	}
	ln, err := listen.TCP("tcp", addr, nil)
	if err != nil {
		return nil, err
	}
	return []net.Listener{ln}, nil
}

// inheritedListeners opens the n listening sockets passed by the parent.
func inheritedListeners(v string) ([]net.Listener, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return nil, fmt.Errorf("%s=%q: not a count of listeners", envListenFDs, v)
	}
	var lns []net.Listener
	for i := range n {
		f := os.NewFile(uintptr(firstInherited+i), "listener")
		ln, err := net.FileListener(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("inherited listener %d: %w", i, err)
		}
		lns = append(lns, ln)
	}
	return lns, nil
}

// notifyServing writes the pid file and tells the parent of a hand-over
// that this process serves.
func (d *deployOptions) notifyServing(stderr io.Writer) {
	if d.pidFile != "" {
		tmp := d.pidFile + ".tmp"
		err := os.WriteFile(tmp, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
		if err == nil {
			err = os.Rename(tmp, d.pidFile)
		}
		if err != nil {
			fmt.Fprintf(stderr, "brisk: pidfile: %v\n", err)
		}
	}
	if v := os.Getenv(envListenFDs); v != "" {
		n, _ := strconv.Atoi(v)
		os.NewFile(uintptr(firstInherited+n), "ready").Close()
		os.Unsetenv(envListenFDs)
		os.Unsetenv(envAdminListener)
	}
}

// handOver starts a new process of this program with the same arguments
// and the listening sockets, the admin one (nil: none) last, and returns
// once it serves.
func handOver(lns []net.Listener, admin net.Listener, stderr io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	env := append(os.Environ(), envAdminListener+"=0")
	if admin != nil {
		lns = append(lns[:len(lns):len(lns)], admin)
		env[len(env)-1] = envAdminListener + "=1"
	}
	for _, ln := range lns {
		tl, ok := ln.(*net.TCPListener)
		if !ok {
			return errors.New("listener is not TCP")
		}
		f, err := tl.File()
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	defer pr.Close()
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, stderr
	cmd.Env = append(env, envListenFDs+"="+strconv.Itoa(len(files)))
	cmd.ExtraFiles = append(files, pw)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return err
	}
	go cmd.Wait() // reaped if it exits while this process still runs
	pr.SetReadDeadline(time.Now().Add(handoverWait))
	if _, err := pr.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		cmd.Process.Kill()
		return fmt.Errorf("new process did not start serving: %v", err)
	}
	return nil
}

// restartRefused says why a SIGHUP restart cannot be done here, "" when
// it can. As PID 1 (a container's init) the new process would be this
// one's child, and the container would end when this one exits, taking
// the new process with it.
func restartRefused() string {
	if os.Getpid() == 1 {
		return "running as PID 1 (a container's init), the container would end with this process; " +
			"in a container, start a new one and stop this one with SIGTERM (it drains)"
	}
	return ""
}

// stopSignals is what ends `brisk serve`: SIGINT shuts down, SIGTERM
// drains first, SIGHUP hands the sockets to a new process and drains.
type stopSignals struct {
	ch chan os.Signal
}

func notifyStop() *stopSignals {
	s := &stopSignals{ch: make(chan os.Signal, 1)}
	signal.Notify(s.ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	return s
}

func (s *stopSignals) stop() { signal.Stop(s.ch) }

// wait waits for ctx to be done or a signal and says how to stop:
// drain first (SIGTERM, or SIGHUP once the sockets are handed over; a
// failed hand-over is reported and serving goes on) and whether the
// sockets (lns and admin, which may be nil) were handed over. s may be
// nil: only ctx counts.
func (s *stopSignals) wait(ctx context.Context, lns []net.Listener, admin net.Listener, stderr io.Writer) (drain, handedOver bool) {
	var ch chan os.Signal
	if s != nil {
		ch = s.ch
	}
	for {
		select {
		case <-ctx.Done():
			return false, false
		case sig := <-ch:
			switch sig {
			case syscall.SIGTERM:
				return true, false
			case syscall.SIGHUP:
				if why := restartRefused(); why != "" {
					fmt.Fprintf(stderr, "brisk: restart refused: %s; still serving\n", why)
					continue
				}
				if err := handOver(lns, admin, stderr); err != nil {
					fmt.Fprintf(stderr, "brisk: restart: %v; still serving\n", err)
					continue
				}
				fmt.Fprintln(stderr, "brisk: restart: the new process serves; draining")
				return true, true
			default:
				return false, false
			}
		}
	}
}
