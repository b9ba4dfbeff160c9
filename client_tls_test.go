package brisk

import (
	"context"
	"crypto/tls"
	"net"
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
