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
