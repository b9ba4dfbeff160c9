package websocket_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/brisk-http/brisk/websocket"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// listenTCP serves srv on loopback TCP (with TLS when cfg is set) until
// the test ends and returns the address.
func listenTCP(t *testing.T, srv *brisk.Server, cfg *tls.Config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if srv.Logger == nil {
		srv.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg != nil {
		srv.TLSConfig = cfg
		go srv.ServeTLS(ln, "", "")
	} else {
		go srv.Serve(ln)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return ln.Addr().String()
}

// echoOnce dials url with gobwas/ws's client, echoes one text message and
// closes.
func echoOnce(t *testing.T, d ws.Dialer, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, _, err := d.Dial(ctx, url)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if err := wsutil.WriteClientText(conn, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if msg, err := wsutil.ReadServerText(conn); err != nil || string(msg) != "hello" {
		t.Errorf("echo over %s: %q, %v", url, msg, err)
	}
}

// TestTLS: wss:// over brisk's TLS: an echo, and a Close 1009 the
// client reads whole before the server's close_notify.
func TestTLS(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	addr := listenTCP(t, &brisk.Server{Handler: websocket.Handler(nil, echo)}, certs.ServerConfig())
	cfg := certs.ClientConfig()
	cfg.ServerName = "localhost"
	d := ws.Dialer{TLSConfig: cfg}
	echoOnce(t, d, "wss://"+addr+"/ws")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, br, _, err := d.Dial(ctx, "wss://"+addr+"/ws")
	if err != nil || br != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	ws.WriteHeader(conn, ws.Header{Fin: true, OpCode: ws.OpBinary, Masked: true, Length: 2 << 20})
	f, err := readFrame(conn)
	if code, _ := ws.ParseCloseFrameData(f.Payload); err != nil || f.Header.OpCode != ws.OpClose || code != ws.StatusMessageTooBig {
		t.Errorf("over TLS: %v %d, %v; want Close 1009", f.Header.OpCode, code, err)
	}
	if _, err := conn.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("after the Close frame: %v, want io.EOF (close_notify)", err)
	}
}

// TestProxyProtocol: behind a PROXY header, the Conn reports the header's
// source as its RemoteAddr, and the stream after the header is the
// WebSocket's.
func TestProxyProtocol(t *testing.T) {
	remote := make(chan string, 1)
	srv := &brisk.Server{
		ProxyProtocol: &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
		Handler: websocket.Handler(nil, func(conn *websocket.Conn) {
			remote <- conn.RemoteAddr().String()
			echo(conn)
		}),
	}
	addr := listenTCP(t, srv, nil)
	d := ws.Dialer{NetDial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		nc, err := net.Dial(network, addr)
		if err == nil {
			_, err = io.WriteString(nc, "PROXY TCP4 203.0.113.7 127.0.0.1 40000 80\r\n")
		}
		return nc, err
	}}
	echoOnce(t, d, "ws://"+addr+"/ws")
	if got := <-remote; got != "203.0.113.7:40000" {
		t.Errorf("RemoteAddr %s, want the PROXY header's source", got)
	}
}

// TestHTTP2: over h2 (TLS) and h2c a WebSocket request cannot upgrade:
// Upgrade fails with ErrNotWebSocket and answers 426 (RFC 8441's extended
// CONNECT is not supported).
func TestHTTP2(t *testing.T) {
	for _, tlsOn := range []bool{true, false} {
		errc := make(chan error, 1)
		srv := &brisk.Server{H2C: !tlsOn, Handler: func(c *brisk.Ctx) {
			conn, err := websocket.Upgrade(c, nil)
			if conn != nil {
				conn.Close()
			}
			errc <- err
		}}
		if err := h2.Configure(srv, h2.Config{}); err != nil {
			t.Fatal(err)
		}
		certs := brisktest.NewTLSCerts()
		var protocols http.Protocols
		tr := &http.Transport{Protocols: &protocols}
		var addr string
		if tlsOn {
			addr = "https://" + listenTCP(t, srv, certs.ServerConfig())
			tr.TLSClientConfig = certs.ClientConfig()
			protocols.SetHTTP2(true)
		} else {
			addr = "http://" + listenTCP(t, srv, nil)
			protocols.SetUnencryptedHTTP2(true)
		}
		client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
		req, _ := http.NewRequest("GET", addr+"/ws", nil)
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := <-errc; resp.ProtoMajor != 2 || resp.StatusCode != 426 || !errors.Is(err, websocket.ErrNotWebSocket) {
			t.Errorf("tls=%v: %s %d, Upgrade error %v; want HTTP/2 426, ErrNotWebSocket", tlsOn, resp.Proto, resp.StatusCode, err)
		}
		tr.CloseIdleConnections()
	}
}

// TestShutdown: Shutdown and Drain close an open WebSocket with 1001
// (going away), and the handler's ReadMessage reports it.
func TestShutdown(t *testing.T) {
	for _, drain := range []bool{false, true} {
		errc := make(chan error, 1)
		srv := &brisk.Server{DrainDelay: -1, Handler: websocket.Handler(nil, func(conn *websocket.Conn) {
			errc <- conn.WriteMessage(websocket.Text, []byte("ready"))
			_, _, err := conn.ReadMessage()
			errc <- err
		})}
		ln := brisktest.NewListener()
		go srv.Serve(ln)
		c := dial(t, ln, handshake(""))
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		c.read() // "ready": the handler reads
		if drain {
			go srv.Drain(context.Background())
		} else {
			go srv.Shutdown(context.Background())
		}
		if code := c.readClose(); code != websocket.StatusGoingAway {
			t.Errorf("drain=%v: Close %d, want 1001", drain, code)
		}
		c.write(frame(0x88, closePayload(1001, "")))
		var ce *websocket.CloseError
		if err := <-errc; !errors.As(err, &ce) || ce.Code != websocket.StatusGoingAway || !ce.Local {
			t.Errorf("drain=%v: ReadMessage: %v", drain, err)
		}
		if _, err := c.br.ReadByte(); err != io.EOF {
			t.Errorf("drain=%v: after the close handshake: %v, want io.EOF", drain, err)
		}
	}
}

// TestClientCloseCancels: with client-close cancellation (the default),
// the request's context is not cancelled by the upgrade itself: the
// WebSocket stays open.
func TestClientCloseCancels(t *testing.T) {
	srv := &brisk.Server{Handler: websocket.Handler(nil, echo)}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	c := dial(t, ln, handshake(""))
	time.Sleep(10 * time.Millisecond) // let a wrongly cancelled context act
	c.write(frame(0x81, []byte("still open")))
	if f := c.read(); f.Header.OpCode != ws.OpText || string(f.Payload) != "still open" {
		t.Errorf("echo: %v %q", f.Header, f.Payload)
	}
}

// TestIdleTimeout: a client that sends nothing within IdleTimeout gets
// Close 1001; with pings on, it receives a Ping first.
func TestIdleTimeout(t *testing.T) {
	ln := serve(t, websocket.Handler(&websocket.Options{IdleTimeout: 50 * time.Millisecond, PingInterval: -1}, echo))
	c := dial(t, ln, handshake(""))
	if f := c.read(); f.Header.OpCode != ws.OpClose || websocket.StatusCode(f.Payload[0])<<8|websocket.StatusCode(f.Payload[1]) != 1001 {
		t.Errorf("idle: %v %q, want Close 1001", f.Header, f.Payload)
	}

	ln = serve(t, websocket.Handler(&websocket.Options{IdleTimeout: time.Minute, PingInterval: 10 * time.Millisecond}, echo))
	c = dial(t, ln, handshake(""))
	if f := c.read(); f.Header.OpCode != ws.OpPing {
		t.Errorf("first frame %v, want a Ping", f.Header)
	}
}

// TestPongKeepsOpen: pongs count as activity: a client that only answers
// pings outlives several IdleTimeouts.
func TestPongKeepsOpen(t *testing.T) {
	const idle = 100 * time.Millisecond
	ln := serve(t, websocket.Handler(&websocket.Options{IdleTimeout: idle, PingInterval: idle / 5}, echo))
	c := dial(t, ln, handshake(""))
	for end := time.Now().Add(4 * idle); time.Now().Before(end); {
		f := c.read()
		if f.Header.OpCode != ws.OpPing {
			t.Fatalf("got %v %q, want only Pings", f.Header, f.Payload)
		}
		c.write(frame(0x8a, f.Payload))
	}
	c.write(frame(0x81, []byte("alive")))
	for {
		if f := c.read(); f.Header.OpCode == ws.OpText {
			if string(f.Payload) != "alive" {
				t.Errorf("echo %q", f.Payload)
			}
			return
		} else if f.Header.OpCode != ws.OpPing {
			t.Fatalf("got %v %q", f.Header, f.Payload)
		}
	}
}

// TestConcurrentWrites: writes from several goroutines, pings and the
// reader's pongs and echoes interleave as whole frames.
func TestConcurrentWrites(t *testing.T) {
	const writers, each = 4, 50
	ln := serve(t, websocket.Handler(&websocket.Options{PingInterval: time.Millisecond}, func(conn *websocket.Conn) {
		for i := range writers {
			go func() {
				for range each {
					conn.WriteMessage(websocket.Binary, bytes.Repeat([]byte{byte(i)}, 2000))
				}
			}()
		}
		echo(conn)
	}))
	c := dial(t, ln, handshake(""))
	go func() {
		for range each {
			c.nc.Write(frame(0x81, []byte("echo me")))
			c.nc.Write(frame(0x89, []byte("ping")))
		}
	}()
	var binaries, texts, pongs int
	for binaries < writers*each || texts < each || pongs < each {
		f := c.read()
		switch f.Header.OpCode {
		case ws.OpBinary:
			if len(f.Payload) != 2000 || bytes.Count(f.Payload, f.Payload[:1]) != 2000 {
				t.Fatalf("binary frame mixed up: %d bytes", len(f.Payload))
			}
			binaries++
		case ws.OpText:
			if string(f.Payload) != "echo me" {
				t.Fatalf("text %q", f.Payload)
			}
			texts++
		case ws.OpPong:
			pongs++
		case ws.OpPing:
		default:
			t.Fatalf("frame %v", f.Header)
		}
	}
}

// TestWriteTimeout: a client that stops reading makes a write fail after
// WriteTimeout; the connection is then closed and the reader ends.
func TestWriteTimeout(t *testing.T) {
	errc := make(chan error, 2)
	ln := serve(t, websocket.Handler(&websocket.Options{WriteTimeout: 50 * time.Millisecond, PingInterval: -1}, func(conn *websocket.Conn) {
		big := make([]byte, 256<<10) // more than the in-memory connection buffers
		var err error
		for err == nil {
			err = conn.WriteMessage(websocket.Binary, big)
		}
		errc <- err
		_, _, err = conn.ReadMessage()
		errc <- err
	}))
	dial(t, ln, handshake("")) // and never read
	select {
	case err := <-errc:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("WriteMessage: %v, want a deadline error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WriteMessage still blocked")
	}
	if err := <-errc; err == nil || errors.As(err, new(*websocket.CloseError)) {
		t.Errorf("ReadMessage after the failed write: %v, want the connection's error", err)
	}
}

// TestNoLeak: connections that end every way (client gone without a
// Close, the client's Close, a protocol error, the server's idle close)
// leave no goroutine behind: handler, pinger and context watch all end.
func TestNoLeak(t *testing.T) {
	done := make(chan struct{}, 64)
	srv := &brisk.Server{Handler: websocket.Handler(&websocket.Options{IdleTimeout: 100 * time.Millisecond, PingInterval: 10 * time.Millisecond},
		func(conn *websocket.Conn) {
			echo(conn)
			done <- struct{}{}
		})}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	before := runtime.NumGoroutine()
	const each = 5
	for range each {
		for _, end := range []func(*client){
			func(c *client) { c.nc.Close() },
			func(c *client) { c.write(frame(0x88, closePayload(1000, ""))); c.readClose() },
			func(c *client) { c.write([]byte{0x81, 0x01, 'x'}); c.readClose() },
			func(c *client) { c.readClose() }, // idle: pings unanswered
		} {
			end(dial(t, ln, handshake("")))
		}
	}
	for range 4 * each {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("a handler did not return")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		t.Errorf("%d goroutines, %d before the connections", n, before)
	}
}
