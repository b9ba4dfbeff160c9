package brisk

import (
	"bufio"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestParkProtocols: with the defaults (parking on), which connections
// are parked: a plain one behind a PROXY header is, and keeps the
// header's client address when served again; a TLS connection, an h2c
// one (handed to Server.HTTP2) and one a handler took over are not.
func TestParkProtocols(t *testing.T) {
	t.Run("proxy_v1", func(t *testing.T) {
		s := &Server{Handler: clientIPHandler, ProxyProtocol: loopbackOnly()}
		ts := startParking(t, s)
		c := ts.connect()
		c.sendSync("PROXY TCP4 203.0.113.7 10.0.0.1 4242 80\r\n")
		for _, path := range []string{"/", "/again"} {
			if _, body := c.roundTrip(get(path)); body != "203.0.113.7" {
				t.Fatalf("%s: client IP %q, want the PROXY header's", path, body)
			}
			waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
		}
	})
	t.Run("tls", func(t *testing.T) {
		p := getPKI(t)
		s := &Server{Handler: echoPath, ParkIdleAfter: -1,
			TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}
		addr := serveTLS(t, s, "", "")
		tc, err := dialTLS(t, addr, p.clientTLS())
		if err != nil {
			t.Fatal(err)
		}
		defer tc.Close()
		tc.SetDeadline(time.Now().Add(5 * time.Second))
		br := bufio.NewReader(tc)
		for _, path := range []string{"/", "/again"} {
			tc.Write([]byte(get(path)))
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			time.Sleep(50 * time.Millisecond) // parked by now, if it were parked
			if n := parkedConns(s); n != 0 {
				t.Fatalf("%d TLS connections parked, want 0", n)
			}
		}
	})
	t.Run("h2c", func(t *testing.T) {
		served := make(chan net.Conn, 1)
		s := &Server{Handler: echoPath, ParkIdleAfter: -1, H2C: true, HTTP2: connServerFunc(func(nc net.Conn) {
			served <- nc
			nc.Read(make([]byte, 1)) // until the client closes
		})}
		ts := startServer(t, "tcp", s)
		c := ts.connect()
		c.sendSync("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Fatal("not handed to HTTP2")
		}
		time.Sleep(50 * time.Millisecond)
		if n := parkedConns(s); n != 0 {
			t.Fatalf("%d h2c connections parked, want 0", n)
		}
		c.nc.Close()
	})
	t.Run("hijacked", func(t *testing.T) {
		taken := make(chan net.Conn, 1)
		s := &Server{ParkIdleAfter: -1, Handler: func(c *Ctx) {
			nc, _, err := c.Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			taken <- nc
		}}
		ts := startServer(t, "tcp", s)
		c := ts.connect()
		c.sendSync(get("/"))
		nc := <-taken
		defer nc.Close()
		time.Sleep(50 * time.Millisecond)
		if n := parkedConns(s); n != 0 {
			t.Fatalf("%d hijacked connections parked, want 0", n)
		}
		const msg = "still the handler's"
		nc.Write([]byte(msg))
		c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		got := make([]byte, len(msg))
		if _, err := io.ReadFull(c.br, got); err != nil || string(got) != msg {
			t.Fatalf("read %q, %v", got, err)
		}
	})
}

// connServerFunc is a ConnServer of a function.
type connServerFunc func(net.Conn)

func (f connServerFunc) ServeConn(nc net.Conn) { f(nc) }

// Shutdown has nothing to do: ServeConn returns when the client closes.
func (f connServerFunc) Shutdown() {}
