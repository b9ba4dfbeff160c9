package middleware

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
)

// protocols runs f once over HTTP/1.1 (cleartext) and once over HTTP/2
// (TLS, ALPN h2), each with a Server built by newServer and a client
// that speaks only that protocol. f gets the client and the base URL.
func protocols(t *testing.T, newServer func() *brisk.Server, f func(t *testing.T, c *http.Client, base string)) {
	for _, proto := range []string{"HTTP/1.1", "HTTP/2.0"} {
		t.Run(proto[:6], func(t *testing.T) {
			srv := newServer()
			if srv.Logger == nil {
				srv.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			tr := &http.Transport{DisableCompression: true}
			base := "http://" + ln.Addr().String()
			done := make(chan error, 1)
			if proto == "HTTP/2.0" {
				certs := brisktest.NewTLSCerts()
				srv.TLSConfig = certs.ServerConfig()
				if err := h2.Configure(srv, h2.Config{}); err != nil {
					t.Fatal(err)
				}
				tr.TLSClientConfig = certs.ClientConfig()
				tr.ForceAttemptHTTP2 = true
				base = "https://" + ln.Addr().String()
				go func() { done <- srv.ServeTLS(ln, "", "") }()
			} else {
				go func() { done <- srv.Serve(ln) }()
			}
			t.Cleanup(func() {
				tr.CloseIdleConnections()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				srv.Shutdown(ctx)
				if err := <-done; !errors.Is(err, brisk.ErrServerClosed) {
					t.Errorf("Serve: %v", err)
				}
			})
			c := &http.Client{Transport: &protoCheck{t: t, proto: proto, rt: tr}, Timeout: 10 * time.Second}
			f(t, c, base)
		})
	}
}

// protoCheck fails the test for a response in another protocol than
// proto.
type protoCheck struct {
	t     *testing.T
	proto string
	rt    http.RoundTripper
}

func (p *protoCheck) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := p.rt.RoundTrip(r)
	if err == nil && resp.Proto != p.proto {
		p.t.Errorf("response in %s, want %s", resp.Proto, p.proto)
	}
	return resp, err
}

// send makes a request and returns the response with its body read.
func send(t *testing.T, c *http.Client, method, url string, fields ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		name, value, _ := strings.Cut(f, ": ")
		req.Header.Add(name, value)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// ok answers 200 "ok".
func ok(c *brisk.Ctx) { c.Response.SetBodyString("ok") }
