package matrix

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
)

// forwardedFor is the X-Forwarded-For the clients send; 127.0.0.0/8 and
// 192.0.2.0/24 (the PROXY headers' source) are trusted proxies, so it is
// the ClientIP wherever it is sent.
const forwardedFor = "198.51.100.9"

// proxySource is the client address the tests' PROXY headers carry.
var proxySource = &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7).To4(), Port: 5555}

// record is a copy of a RequestInfo.
type record struct {
	method, target, proto, remote string
	status                        int
	read, written                 int64
	err                           error
}

// recorder keeps the OnRequestDone records by request-target.
type recorder struct {
	mu   sync.Mutex
	recs map[string][]record
}

func (r *recorder) done(in *brisk.RequestInfo) {
	rec := record{method: string(in.Method), target: string(in.Target), proto: in.Proto,
		status: in.Status, read: in.BytesRead, written: in.BytesWritten, err: in.Err}
	if in.RemoteAddr != nil {
		rec.remote = in.RemoteAddr.String()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.recs == nil {
		r.recs = make(map[string][]record)
	}
	r.recs[rec.target] = append(r.recs[rec.target], rec)
}

// one waits (up to 5 s) for the record of target and returns it; it fails
// the test unless there is exactly one, 100 ms after the first came.
func (r *recorder) one(t *testing.T, target string) record {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		n := len(r.recs[target])
		r.mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a second call would come now
	r.mu.Lock()
	defer r.mu.Unlock()
	recs := r.recs[target]
	if len(recs) != 1 {
		t.Fatalf("%s: %d OnRequestDone calls, want 1: %+v", target, len(recs), recs)
	}
	return recs[0]
}

// gate holds the handlers of /hang and /slow requests, by id.
type gate struct {
	mu      sync.Mutex
	started map[string]chan struct{} // closed when the handler runs
	result  map[string]chan string   // /hang: what the handler saw
	release chan struct{}            // /slow: closed to let them finish
}

func newGate() *gate {
	return &gate{started: map[string]chan struct{}{}, result: map[string]chan string{}, release: make(chan struct{})}
}

func (g *gate) chans(id string) (chan struct{}, chan string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.started[id] == nil {
		g.started[id], g.result[id] = make(chan struct{}), make(chan string, 1)
	}
	return g.started[id], g.result[id]
}

// handler is the one every cell runs:
//
//	/facts   the request's facts, one "name=value" per line
//	/echo    reads the body, answers 201 with n=<bytes> bytes of "x"
//	/hang    waits for the request's context to end (then 499), up to 5 s
//	/slow    waits until the gate is released, then 200 "done"
func handler(g *gate) brisk.Handler {
	return func(c *brisk.Ctx) {
		id := string(c.Request.QueryArgs().Peek("id"))
		switch string(c.Request.Path()) {
		case "/facts":
			c.Response.WriteString(facts(c))
		case "/echo":
			body, err := c.Request.Body()
			if err != nil {
				c.Response.SetStatusCode(400)
				return
			}
			n, _ := strconv.Atoi(string(c.Request.QueryArgs().Peek("n")))
			c.Response.SetStatusCode(201)
			c.Response.WriteString(fmt.Sprintf("%d:", len(body)) + strings.Repeat("x", n))
		case "/hang":
			started, result := g.chans(id)
			close(started)
			select {
			case <-c.Context().Done():
				result <- "cancelled"
				c.Response.SetStatusCode(499)
			case <-time.After(5 * time.Second):
				result <- "not cancelled"
			}
		case "/slow":
			started, _ := g.chans(id)
			close(started)
			<-g.release
			c.Response.WriteString("done")
		default:
			c.Response.SetStatusCode(404)
		}
	}
}

// facts renders what the handler knows of the request's connection.
func facts(c *brisk.Ctx) string {
	tlsState := "none"
	if st := c.TLS(); st != nil {
		tlsState = fmt.Sprintf("%s/%x", st.NegotiatedProtocol, st.Version)
	}
	proxy := "none"
	if h := c.Proxy(); h != nil {
		proxy = fmt.Sprintf("v%d/%v", h.Version, h.Source)
	}
	return fmt.Sprintf("proto=%s\nctxproto=%s\nremote=%s\nclientip=%s\npeer=%s\nlocal=%s\ntls=%s\nproxy=%s\n",
		c.Request.Proto(), c.Proto(), c.RemoteAddr(), c.ClientIP(), c.PeerAddr(), c.LocalAddr(), tlsState, proxy)
}

// server is one of the matrix's servers: cleartext (HTTP/1.1 and h2c)
// or TLS (ALPN h2 and http/1.1), with or without ProxyProtocol.
type server struct {
	srv   *brisk.Server
	addr  string
	tls   bool
	proxy bool
	rec   *recorder
	conns *connStates
	gate  *gate
	done  chan error // Serve's result
}

// startServer starts a server for the matrix; its cleanup shuts it down.
func startServer(t *testing.T, certs *brisktest.TLSCerts, tlsOn, proxy bool) *server {
	t.Helper()
	s := &server{tls: tlsOn, proxy: proxy, rec: &recorder{}, conns: &connStates{m: map[string][]string{}},
		gate: newGate(), done: make(chan error, 1)}
	s.srv = &brisk.Server{
		Handler:        handler(s.gate),
		H2C:            !tlsOn,
		OnRequestDone:  s.rec.done,
		ConnState:      s.conns.record,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("192.0.2.0/24")},
		DrainDelay:     20 * time.Millisecond,
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if proxy {
		s.srv.ProxyProtocol = &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	}
	if err := h2.Configure(s.srv, h2.Config{}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	go func() {
		if tlsOn {
			s.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{certs.Server}}
			s.done <- s.srv.ServeTLS(ln, "", "")
		} else {
			s.done <- s.srv.Serve(ln)
		}
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.srv.Shutdown(ctx)
		if err := <-s.done; !errors.Is(err, brisk.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	return s
}

// writeFile writes a file the test needs.
func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// connStates records the states ConnState reports, by the connection's
// peer address.
type connStates struct {
	mu sync.Mutex
	m  map[string][]string
}

func (c *connStates) record(nc net.Conn, st brisk.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	peer := nc.RemoteAddr().String()
	c.m[peer] = append(c.m[peer], st.String())
}

// closed waits (up to 5 s) for the connection from peer to be reported
// closed and returns its states, space-separated.
func (c *connStates) closed(peer string) string {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		states := strings.Join(c.m[peer], " ")
		c.mu.Unlock()
		if strings.HasSuffix(states, "closed") || time.Now().After(deadline) {
			return states
		}
	}
}
