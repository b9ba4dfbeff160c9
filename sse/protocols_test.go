package sse_test

import (
	"bufio"
	"context"
	"crypto/tls"
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
	"github.com/brisk-http/brisk/sse"
)

// TestProtocols: the same stream over HTTP/1.1, HTTP/1.0 (delimited by
// the close), TLS, h2, h2c and behind a PROXY header: the head, the
// events in order, the first one before the handler sends the second.
func TestProtocols(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	for _, tc := range []struct {
		name       string
		tls, proxy bool
		proto      string // the client's protocols: "1.1", "1.0", "h2", "h2c"
	}{
		{"http11", false, false, "1.1"},
		{"http10", false, false, "1.0"},
		{"tls", true, false, "1.1"},
		{"h2", true, false, "h2"},
		{"h2c", false, false, "h2c"},
		{"proxy", false, true, "1.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ack := make(chan struct{})
			remote := make(chan string, 1)
			srv := &brisk.Server{Logger: slog.New(slog.DiscardHandler), H2C: tc.proto == "h2c", Handler: func(c *brisk.Ctx) {
				remote <- c.RemoteAddr().String()
				s, err := sse.New(c, nil)
				if err != nil {
					return
				}
				s.Send(sse.Event{ID: "1", Data: "one"})
				select {
				case <-ack:
				case <-time.After(10 * time.Second):
					return // not flushed
				}
				s.Send(sse.Event{ID: "2", Data: "two"})
			}}
			if tc.proxy {
				srv.ProxyProtocol = &brisk.ProxyProtocol{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
			}
			if tc.proto == "h2" || tc.proto == "h2c" {
				if err := h2.Configure(srv, h2.Config{}); err != nil {
					t.Fatal(err)
				}
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			scheme := "http://"
			if tc.tls {
				scheme = "https://"
				srv.TLSConfig = certs.ServerConfig()
				go srv.ServeTLS(ln, "", "")
			} else {
				go srv.Serve(ln)
			}
			defer srv.Shutdown(context.Background())

			body, proto := stream(t, tc.proto, tc.proxy, scheme+ln.Addr().String()+"/", certs.ClientConfig())
			defer body.Close()
			br := bufio.NewReader(body)
			var got strings.Builder
			for got.String() != "id: 1\ndata: one\n\n" {
				line, err := br.ReadString('\n')
				if err != nil {
					t.Fatalf("%s: first event: %q, %v", proto, got.String(), err)
				}
				got.WriteString(line)
			}
			close(ack)
			rest, err := io.ReadAll(br)
			if err != nil || string(rest) != "id: 2\ndata: two\n\n" {
				t.Errorf("%s: rest %q, %v", proto, rest, err)
			}
			if r := <-remote; tc.proxy && r != "203.0.113.9:5000" {
				t.Errorf("RemoteAddr %s behind PROXY", r)
			}
		})
	}
}

// stream GETs url with the client protocol proto and returns the body,
// after checking the head, and the response's protocol.
func stream(t *testing.T, proto string, proxy bool, url string, cfg *tls.Config) (io.ReadCloser, string) {
	t.Helper()
	var protocols http.Protocols
	switch proto {
	case "h2":
		protocols.SetHTTP2(true)
	case "h2c":
		protocols.SetUnencryptedHTTP2(true)
	default:
		protocols.SetHTTP1(true)
	}
	tr := &http.Transport{TLSClientConfig: cfg, Protocols: &protocols, DisableCompression: true}
	if proxy {
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			nc, err := new(net.Dialer).DialContext(ctx, network, addr)
			if err == nil {
				_, err = io.WriteString(nc, "PROXY TCP4 203.0.113.9 127.0.0.1 5000 80\r\n")
			}
			return nc, err
		}
	}
	t.Cleanup(tr.CloseIdleConnections)
	if proto == "1.0" {
		return get10(t, url), "HTTP/1.0"
	}
	req, _ := http.NewRequest("GET", url, nil)
	resp, err := (&http.Client{Transport: tr, Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%s: %d %v", resp.Proto, resp.StatusCode, resp.Header)
	}
	if want := map[string]int{"h2": 2, "h2c": 2}[proto]; want != 0 && resp.ProtoMajor != want {
		t.Fatalf("response over %s, want HTTP/2", resp.Proto)
	}
	return resp.Body, resp.Proto
}

// get10 sends an HTTP/1.0 GET and returns the body: the rest of the
// connection after the head.
func get10(t *testing.T, url string) io.ReadCloser {
	t.Helper()
	nc, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	io.WriteString(nc, "GET / HTTP/1.0\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || len(resp.TransferEncoding) != 0 || resp.ContentLength != -1 || !resp.Close {
		t.Fatalf("HTTP/1.0: %d, %v, length %d, close %v", resp.StatusCode, resp.TransferEncoding, resp.ContentLength, resp.Close)
	}
	return resp.Body
}
