package middleware

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// TestAccessLogProtocols: one FormatJSON record per request on every
// protocol, with its proto, client and remote: HTTP/1.1, over TLS, h2
// (ALPN), h2c (prior knowledge), behind a PROXY header, and a 101
// Switching Protocols whose connection the handler took over.
func TestAccessLogProtocols(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	for _, tc := range []struct {
		name           string
		tls, h2, proxy bool
		send           func(t *testing.T, addr string, tr *http.Transport)
		want           map[string]any
	}{
		{name: "http1", send: get("http", "/x", "X-Forwarded-For", "198.51.100.9"),
			want: map[string]any{"proto": "HTTP/1.1", "status": 200.0, "client": "198.51.100.9", "remote": "127.0.0.1:*"}},
		{name: "tls", tls: true, send: get("https", "/x"),
			want: map[string]any{"proto": "HTTP/1.1", "status": 200.0, "client": "127.0.0.1", "remote": "127.0.0.1:*"}},
		{name: "h2", tls: true, h2: true, send: get("https", "/x", "X-Forwarded-For", "198.51.100.9"),
			want: map[string]any{"proto": "HTTP/2.0", "status": 200.0, "client": "198.51.100.9", "remote": "127.0.0.1:*"}},
		{name: "h2c", h2: true, send: get("http", "/x"),
			want: map[string]any{"proto": "HTTP/2.0", "status": 200.0, "client": "127.0.0.1", "remote": "127.0.0.1:*"}},
		{name: "proxy", proxy: true, send: raw("PROXY TCP4 192.0.2.7 127.0.0.1 5555 80\r\nGET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"),
			want: map[string]any{"proto": "HTTP/1.1", "status": 200.0, "client": "192.0.2.7", "remote": "192.0.2.7:5555"}},
		{name: "upgrade", send: raw("GET /upgrade HTTP/1.1\r\nHost: h\r\nConnection: upgrade\r\nUpgrade: echo\r\n\r\n"),
			want: map[string]any{"proto": "HTTP/1.1", "status": 101.0, "client": "127.0.0.1", "remote": "127.0.0.1:*", "target": "/upgrade"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out syncbuf.Buffer
			l := &AccessLog{Format: FormatJSON, Writer: &out}
			done := make(chan struct{}, 4)
			srv := &brisk.Server{
				Handler:        protoHandler,
				OnRequestDone:  func(in *brisk.RequestInfo) { l.OnRequestDone(in); done <- struct{}{} },
				OnReject:       l.OnReject,
				H2C:            tc.h2 && !tc.tls,
				TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
				Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
			}
			if tc.proxy {
				srv.ProxyProtocol = &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
			}
			tr := &http.Transport{TLSClientConfig: certs.ClientConfig(), Protocols: new(http.Protocols)}
			defer tr.CloseIdleConnections()
			switch {
			case tc.h2 && tc.tls:
				tr.Protocols.SetHTTP2(true)
			case tc.h2:
				tr.Protocols.SetUnencryptedHTTP2(true)
			default:
				tr.Protocols.SetHTTP1(true)
			}
			if tc.h2 {
				if err := h2.Configure(srv, h2.Config{}); err != nil {
					t.Fatal(err)
				}
			}
			addr := serveFor(t, srv, certs, tc.tls)
			tc.send(t, addr, tr)
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("OnRequestDone not called")
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != 1 {
				t.Fatalf("%d lines, want 1: %q", len(lines), lines)
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
				t.Fatalf("%v: %s", err, lines[0])
			}
			if r, ok := rec["remote"].(string); ok && strings.HasPrefix(r, "127.0.0.1:") {
				rec["remote"] = "127.0.0.1:*"
			}
			want := map[string]any{"msg": "request", "method": "GET", "target": "/x", "host": "h"}
			for k, v := range tc.want {
				want[k] = v
			}
			if tc.h2 || tc.name == "http1" || tc.name == "tls" {
				want["host"] = addr
			}
			for k, v := range want {
				if rec[k] != v {
					t.Errorf("%s: %#v, want %#v (%s)", k, rec[k], v, lines[0])
				}
			}
			if n, _ := rec["bytes"].(float64); n <= 0 {
				t.Errorf("bytes %v, want the response's", rec["bytes"])
			}
		})
	}
}

// protoHandler answers "ok", and switches /upgrade to the protocol
// "echo", which echoes one line.
func protoHandler(c *brisk.Ctx) {
	if string(c.Request.Path()) != "/upgrade" {
		c.Response.SetBodyString("ok")
		return
	}
	nc, buffered, err := c.Upgrade("echo")
	if err != nil {
		c.Error(426, err)
		return
	}
	defer nc.Close()
	br := bufio.NewReader(io.MultiReader(strings.NewReader(string(buffered)), nc))
	line, _ := br.ReadString('\n')
	io.WriteString(nc, line)
}

// serveFor serves srv on loopback, over TLS (certs) when tlsOn, until
// the test ends, and returns its address.
func serveFor(t *testing.T, srv *brisk.Server, certs *brisktest.TLSCerts, tlsOn bool) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	if tlsOn {
		srv.TLSConfig = certs.ServerConfig()
		go func() { done <- srv.ServeTLS(ln, "", "") }()
	} else {
		go func() { done <- srv.Serve(ln) }()
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		if err := <-done; !errors.Is(err, brisk.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// get returns a sender of GET target with the given fields, over scheme
// with the test's transport.
func get(scheme, target string, fields ...string) func(t *testing.T, addr string, tr *http.Transport) {
	return func(t *testing.T, addr string, tr *http.Transport) {
		req, err := http.NewRequest("GET", scheme+"://"+addr+target, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(fields); i += 2 {
			req.Header.Set(fields[i], fields[i+1])
		}
		resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// raw returns a sender of the bytes req on a new connection, which reads
// the response head and, for a 101, exchanges one line in the new
// protocol.
func raw(req string) func(t *testing.T, addr string, tr *http.Transport) {
	return func(t *testing.T, addr string, tr *http.Transport) {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(nc, req)
		br := bufio.NewReader(nc)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == 101 {
			io.WriteString(nc, "hello\n")
			if line, err := br.ReadString('\n'); line != "hello\n" {
				t.Fatalf("echo %q, %v", line, err)
			}
			return
		}
		io.Copy(io.Discard, resp.Body)
	}
}
