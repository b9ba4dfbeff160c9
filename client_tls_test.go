package brisk

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestClientTLSState: the client presents its certificate from TLSConfig
// (mTLS), the server's handler sees it, and Response.TLS shows the
// server's verified certificate; a plain-http response has no TLS state.
func TestClientTLSState(t *testing.T) {
	p := getPKI(t)
	addr := serveTLS(t, &Server{Handler: tlsInfo, TLSConfig: &tls.Config{
		Certificates: []tls.Certificate{p.server},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    p.ca.Pool,
	}}, "", "")
	cl := &Client{ClientConfig: ClientConfig{TLSConfig: &tls.Config{
		RootCAs:      p.ca.Pool,
		Certificates: []tls.Certificate{p.client},
	}}}
	defer cl.CloseIdleConnections()
	var req Request
	var resp Response
	req.SetURI("https://" + addr + "/")
	for i := range 2 { // the second on the same connection
		if err := cl.Do(&req, &resp); err != nil {
			t.Fatal(err)
		}
		if got, want := string(resp.Body()), "TLS 1.3 alpn= sni= peer=alice chains=1"; got != want {
			t.Fatalf("request %d: body %q, want %q", i, got, want)
		}
		st := resp.TLS()
		if st == nil || st.PeerCertificates[0].SerialNumber.Cmp(p.server.Leaf.SerialNumber) != 0 || len(st.VerifiedChains) != 1 {
			t.Fatalf("request %d: Response.TLS %+v, want the server's verified certificate", i, st)
		}
	}

	// Without the client certificate the server refuses the handshake.
	bare := &Client{ClientConfig: ClientConfig{TLSConfig: &tls.Config{RootCAs: p.ca.Pool}}}
	if err := bare.Do(&req, &resp); err == nil || resp.StatusCode() != 0 || resp.TLS() != nil {
		t.Fatalf("without a client certificate: %v, status %d, TLS %v; want an error", err, resp.StatusCode(), resp.TLS())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Handler: tlsInfo}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	req.SetURI("http://" + ln.Addr().String() + "/")
	if err := cl.Do(&req, &resp); err != nil || string(resp.Body()) != "cleartext" || resp.TLS() != nil {
		t.Fatalf("http: %v, body %q, TLS %v; want cleartext and no TLS state", err, resp.Body(), resp.TLS())
	}
}

// TestClientTLSNextProtosH2: a TLSConfig whose NextProtos offers "h2"
// (as one copied from net/http does) against a server that speaks h2 and
// http/1.1 gets HTTP/1.1 responses: the client offers only the HTTP/1.x
// protocols of the list, in its own copy, and leaves the caller's config
// as it was. It used to let the server choose h2 and fail with
// "connection closed by the server: EOF".
func TestClientTLSNextProtosH2(t *testing.T) {
	p := getPKI(t)
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	}))
	hs.EnableHTTP2 = true
	hs.Config.ErrorLog = log.New(io.Discard, "", 0) // the h2 server's "bogus greeting" before the fix
	hs.TLS = &tls.Config{Certificates: []tls.Certificate{p.server}, NextProtos: []string{"h2", "http/1.1"}}
	hs.StartTLS()
	defer hs.Close()
	if got := hs.TLS.NextProtos; !slices.Contains(got, "h2") || !slices.Contains(got, "http/1.1") {
		t.Fatalf("server offers %q, want h2 and http/1.1", got)
	}
	for _, tc := range []struct {
		name   string
		protos []string
		alpn   string // the protocol negotiated
	}{
		{"h2_first", []string{"h2", "http/1.1"}, "http/1.1"},
		{"h2_only", []string{"h2"}, ""},
		{"http11", []string{"http/1.1"}, "http/1.1"},
		{"none", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conf := &tls.Config{RootCAs: p.ca.Pool, NextProtos: slices.Clone(tc.protos)}
			cl := &Client{ClientConfig: ClientConfig{TLSConfig: conf}}
			defer cl.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetURI(hs.URL + "/")
			for i := range 2 { // the second on the same connection
				if err := cl.Do(&req, &resp); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if resp.StatusCode() != 200 || string(resp.Body()) != "HTTP/1.1" || resp.TLS().NegotiatedProtocol != tc.alpn {
					t.Fatalf("request %d: %d %q ALPN %q, want 200 \"HTTP/1.1\" ALPN %q",
						i, resp.StatusCode(), resp.Body(), resp.TLS().NegotiatedProtocol, tc.alpn)
				}
			}
			if !slices.Equal(conf.NextProtos, tc.protos) {
				t.Fatalf("the caller's NextProtos became %q, want %q", conf.NextProtos, tc.protos)
			}
		})
	}
}

// TestClientTLSServerHTTP2Only: against a server that speaks HTTP/2 only,
// the client's error names the likely cause. The client offers only
// HTTP/1.x in ALPN, so a config offering "h2" and "http/1.1" (one made
// for net/http) reaches such a server as an HTTP/1.1 client; it used to
// fail with "brisk: connection closed by the server: EOF" (net/http's
// server with Protocols HTTP/2 alone closes the connection at once: Go's
// TLS accepts an "http/1.1" offer to an "h2" server, choosing no
// protocol) or "wire: malformed status line at byte 0" (a server that
// answers with its HTTP/2 SETTINGS frame), naming nothing.
func TestClientTLSServerHTTP2Only(t *testing.T) {
	p := getPKI(t)
	h2only := new(http.Protocols)
	h2only.SetHTTP2(true)
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), Protocols: h2only,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}, ErrorLog: log.New(io.Discard, "", 0)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.ServeTLS(ln, "", "")
	defer hs.Close()

	// A server sending its preface, a SETTINGS frame, whatever ALPN chose.
	fl, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{p.server}, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	go func() {
		for {
			nc, err := fl.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				nc.Write([]byte("\x00\x00\x00\x04\x00\x00\x00\x00\x00")) // SETTINGS, empty, stream 0
				nc.Read(make([]byte, 4096))
			}()
		}
	}()

	for _, tc := range []struct {
		name, addr string
		protos     []string
	}{
		{"closes_h2_first", ln.Addr().String(), []string{"h2", "http/1.1"}},
		{"closes_http11", ln.Addr().String(), []string{"http/1.1"}},
		{"settings_h2_only", fl.Addr().String(), []string{"h2"}},
		{"settings_no_alpn", fl.Addr().String(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl := &Client{ClientConfig: ClientConfig{TLSConfig: &tls.Config{RootCAs: p.ca.Pool, NextProtos: tc.protos}}}
			defer cl.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetURI("https://" + tc.addr + "/")
			err := cl.Do(&req, &resp)
			if err == nil || !strings.Contains(err.Error(), "HTTP/2") {
				t.Fatalf("error %v, want one naming HTTP/2", err)
			}
		})
	}
}
