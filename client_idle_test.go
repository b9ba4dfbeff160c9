package brisk

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// idleEndServer is a raw TCP server that answers each request with a
// keep-alive 200 "ok"; 20 ms after the first response of the first
// connection it runs end on that connection (close it, reset it, send
// bytes unasked) and signals ended. It counts the connections and the requests each
// received.
type idleEndServer struct {
	url      string
	conns    *atomic.Int64
	requests [2]atomic.Int64 // per connection, the first two
	ended    chan struct{}
}

func startIdleEndServer(t *testing.T, end func(nc *net.TCPConn)) *idleEndServer {
	t.Helper()
	s := &idleEndServer{ended: make(chan struct{})}
	url, conns := rawServer(t, func(i int64, nc net.Conn) {
		br := bufio.NewReader(nc)
		for readHeadAndBody(br) {
			if i < 2 {
				s.requests[i].Add(1)
			}
			if _, err := io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"); err != nil {
				return
			}
			if i == 0 {
				// Once the client has read the response and made the
				// connection idle.
				time.Sleep(20 * time.Millisecond)
				end(nc.(*net.TCPConn))
				close(s.ended)
				io.Copy(io.Discard, nc)
				return
			}
		}
	})
	s.url, s.conns = url, conns
	return s
}

// readHeadAndBody reads one request head and its body of at most 9 bytes
// (a single-digit Content-Length).
func readHeadAndBody(br *bufio.Reader) bool {
	n := 0
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return false
		}
		if len(line) == len("Content-Length: 1\r\n") && line[:16] == "Content-Length: " {
			n = int(line[16] - '0')
		}
		if line == "\r\n" {
			_, err := io.ReadFull(br, make([]byte, n))
			return err == nil
		}
	}
}

// TestClientProbesIdleConnection: no request, retried or not, is sent on
// an idle connection the server has closed, reset or sent bytes on while
// idle (RFC 9112 §9.2): it goes on a new connection and succeeds. The
// first connection receives one request only.
func TestClientProbesIdleConnection(t *testing.T) {
	if !peekProbes() {
		t.Skip("no idle-connection probe on this system")
	}
	ends := []struct {
		name string
		end  func(nc *net.TCPConn)
	}{
		{"closed", func(nc *net.TCPConn) { nc.Close() }},
		{"reset", func(nc *net.TCPConn) { nc.SetLinger(0); nc.Close() }},
		{"unsolicited_bytes", func(nc *net.TCPConn) { io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") }},
	}
	requests := []struct {
		name, method string
		retries      int
	}{
		{"POST", "POST", 0},
		{"PATCH", "PATCH", 0},
		{"GET_retries_off", "GET", -1},
		{"GET", "GET", 0},
	}
	for _, e := range ends {
		for _, r := range requests {
			t.Run(e.name+"/"+r.name, func(t *testing.T) {
				s := startIdleEndServer(t, e.end)
				c := &Client{ClientConfig: ClientConfig{MaxIdempotentRetries: r.retries}}
				defer c.CloseIdleConnections()
				var req Request
				var resp Response
				req.SetMethod(r.method)
				req.SetURI(s.url + "/")
				req.SetBodyString("data")
				if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil {
					t.Fatal(err)
				}
				<-s.ended
				time.Sleep(20 * time.Millisecond) // let the FIN, RST or bytes arrive
				if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil || resp.StatusCode() != 200 || string(resp.Body()) != "ok" {
					t.Fatalf("%s after the idle connection ended: %v %d %q", r.method, err, resp.StatusCode(), resp.Body())
				}
				if n, first := s.conns.Load(), s.requests[0].Load(); n != 2 || first != 1 {
					t.Fatalf("%d connections, %d requests on the first; want 2 and 1", n, first)
				}
			})
		}
	}
}

// TestClientPostAfterServerIdleTimeout: a brisk Server closes an idle
// connection after its IdleTimeout; a POST sent later goes on a new
// connection.
func TestClientPostAfterServerIdleTimeout(t *testing.T) {
	if !peekProbes() {
		t.Skip("no idle-connection probe on this system")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &countingListener{Listener: l}
	srv := &Server{Handler: routes, IdleTimeout: 100 * time.Millisecond}
	done := make(chan struct{})
	go func() { srv.Serve(ln); close(done) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-done
	})
	cl := &Client{}
	defer cl.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetMethod("POST")
	req.SetURI("http://" + l.Addr().String() + "/echo")
	req.SetBodyString("data")
	for i := range 3 {
		if i > 0 {
			time.Sleep(300 * time.Millisecond)
		}
		if err := cl.DoTimeout(&req, &resp, 2*time.Second); err != nil || string(resp.Body()) != "data" {
			t.Fatalf("POST %d: %v %q", i, err, resp.Body())
		}
	}
	if n := ln.accepted.Load(); n != 3 {
		t.Fatalf("%d connections, want 3", n)
	}
}

// TestClientUnsolicitedResponse: a server answers a GET and then, with
// nothing outstanding, sends a second complete response; the next GET,
// sent idleProbeAfter after the first began, does not take that response
// as its answer (RFC 9112 §9.2): the connection is closed and the GET
// goes on a new one.
func TestClientUnsolicitedResponse(t *testing.T) {
	if !peekProbes() {
		t.Skip("no idle-connection probe on this system")
	}
	idle, sent := make(chan struct{}), make(chan struct{})
	var first atomic.Int64
	url, conns := rawServer(t, func(i int64, nc net.Conn) {
		br := bufio.NewReader(nc)
		for readHead(br) {
			if i > 0 {
				io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				continue
			}
			if first.Add(1) > 1 {
				io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstale")
				continue
			}
			io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst")
			<-idle
			io.WriteString(nc, "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond")
			close(sent)
		}
	})
	hc := &HostClient{Addr: strings.TrimPrefix(url, "http://")}
	defer hc.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetTarget("/")
	start := time.Now()
	if err := hc.DoTimeout(&req, &resp, 2*time.Second); err != nil || string(resp.Body()) != "first" {
		t.Fatalf("first GET: %v %q", err, resp.Body())
	}
	close(idle)
	<-sent
	waitFor(t, func() bool { return idleHasInput(t, hc) })
	time.Sleep(time.Until(start.Add(idleProbeAfter)))
	if err := hc.DoTimeout(&req, &resp, 2*time.Second); err != nil || string(resp.Body()) != "ok" {
		t.Fatalf("GET after an unsolicited response: %v %q, want \"ok\"", err, resp.Body())
	}
	if n, f := conns.Load(), first.Load(); n != 2 || f != 1 {
		t.Fatalf("%d connections, %d requests on the first; want 2 and 1", n, f)
	}
}

// idleHasInput reports whether the socket of hc's only idle connection
// has input waiting, as peekSocket sees it.
func idleHasInput(t *testing.T, hc *HostClient) bool {
	t.Helper()
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if len(hc.idle) != 1 {
		t.Fatalf("%d idle connections, want 1", len(hc.idle))
	}
	var r peekResult
	var b [1]byte
	if err := hc.idle[0].raw.rc.Control(func(fd uintptr) { r = peekSocket(fd, &b) }); err != nil {
		t.Fatal(err)
	}
	return r == peekInput
}
