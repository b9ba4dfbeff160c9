package brisk_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// ExampleServer_ServeTLS serves HTTPS with a certificate that can be
// replaced while the server runs: GetCertificate returns the current one
// at each handshake, so a reload (on SIGHUP, or when the files change) is
// a Store. The handler reads the connection's TLS state from Ctx.TLS. The
// certificate here is a throwaway one from brisktest; a real server loads
// its files with tls.LoadX509KeyPair, or passes them to ListenAndServeTLS.
func ExampleServer_ServeTLS() {
	certs := brisktest.NewTLSCerts() // for tests only
	var current atomic.Pointer[tls.Certificate]
	current.Store(&certs.Server)
	// To reload: next, err := tls.LoadX509KeyPair(certFile, keyFile); if err == nil { current.Store(&next) }

	srv := &brisk.Server{
		Handler: func(c *brisk.Ctx) {
			st := c.TLS() // nil on a cleartext connection
			fmt.Fprintf(&c.Response, "%s, server name %s", tls.VersionName(st.Version), st.ServerName)
		},
		TLSConfig: &tls.Config{
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return current.Load(), nil },
		},
	}
	ln := brisktest.NewListener()
	go srv.ServeTLS(ln, "", "")
	defer srv.Shutdown(context.Background())

	conn, _ := ln.Dial()
	cfg := certs.ClientConfig() // trusts the throwaway authority
	cfg.ServerName = "localhost"
	tc := tls.Client(conn, cfg)
	defer tc.Close()
	io.WriteString(tc, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	fmt.Println(string(body))
	// Output:
	// 200 OK
	// TLS 1.3, server name localhost
}

// ExampleCtx_TLS requires client certificates (mTLS) issued by one
// authority and answers with the client's name from its verified
// certificate. A client without a certificate is refused at the
// handshake; no handler runs for it. The certificates are throwaway ones
// from brisktest: a real server loads its own and the authority's.
func ExampleCtx_TLS() {
	certs := brisktest.NewTLSCerts() // for tests only
	clientCert := certs.ClientCert("alice")

	srv := &brisk.Server{
		Handler: func(c *brisk.Ctx) {
			st := c.TLS()
			leaf := st.VerifiedChains[0][0] // the client's certificate, verified against ClientCAs
			fmt.Fprintf(&c.Response, "hello %s", leaf.Subject.CommonName)
		},
		TLSConfig: &tls.Config{
			Certificates: []tls.Certificate{certs.Server},
			ClientAuth:   tls.RequireAndVerifyClientCert,
			ClientCAs:    certs.Pool,
		},
	}
	ln := brisktest.NewListener()
	go srv.ServeTLS(ln, "", "")
	defer srv.Shutdown(context.Background())

	cl := &brisk.Client{ClientConfig: brisk.ClientConfig{
		Dial: ln.DialContext,
		TLSConfig: &tls.Config{
			RootCAs:      certs.Pool,
			Certificates: []tls.Certificate{clientCert},
		},
	}}
	defer cl.CloseIdleConnections()
	var req brisk.Request
	var resp brisk.Response
	req.SetURI("https://localhost/")
	if err := cl.Do(&req, &resp); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(resp.Body()))
	fmt.Println("server certificate:", resp.TLS().PeerCertificates[0].Subject.CommonName)
	// Output:
	// hello alice
	// server certificate: localhost
}
