package brisktest_test

import (
	"crypto/tls"
	"testing"

	"github.com/brisk-http/brisk/brisktest"
)

// handshake runs a TLS handshake over a Listener's pipe and returns the
// client's error and the server's.
func handshake(t *testing.T, server, client *tls.Config) (clientErr, serverErr error) {
	t.Helper()
	ln := brisktest.NewListener()
	defer ln.Close()
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		done <- tls.Server(c, server).Handshake()
	}()
	c, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	tc := tls.Client(c, client)
	clientErr = tc.Handshake()
	tc.Close()
	return clientErr, <-done
}

// TestTLSCerts: a client with ClientConfig verifies the server
// certificate for each name it covers and refuses another; a server
// with ClientCAs Pool verifies a ClientCert.
func TestTLSCerts(t *testing.T) {
	certs := brisktest.NewTLSCerts()
	for _, name := range []string{"localhost", "127.0.0.1", "::1"} {
		cfg := certs.ClientConfig()
		cfg.ServerName = name
		if cerr, serr := handshake(t, certs.ServerConfig(), cfg); cerr != nil || serr != nil {
			t.Errorf("%s: client %v, server %v", name, cerr, serr)
		}
	}
	cfg := certs.ClientConfig()
	cfg.ServerName = "example.com"
	if cerr, _ := handshake(t, certs.ServerConfig(), cfg); cerr == nil {
		t.Error("example.com: handshake succeeded with a certificate for localhost")
	}
	if cerr, _ := handshake(t, certs.ServerConfig(), brisktest.NewTLSCerts().ClientConfig()); cerr == nil {
		t.Error("another authority's ClientConfig trusted the server")
	}

	srv := certs.ServerConfig()
	srv.ClientAuth, srv.ClientCAs = tls.RequireAndVerifyClientCert, certs.Pool
	srv.VerifyConnection = func(st tls.ConnectionState) error {
		if cn := st.PeerCertificates[0].Subject.CommonName; cn != "alice" {
			t.Errorf("client certificate for %q, want alice", cn)
		}
		return nil
	}
	cfg = certs.ClientConfig()
	cfg.ServerName = "localhost"
	cfg.Certificates = []tls.Certificate{certs.ClientCert("alice")}
	if cerr, serr := handshake(t, srv, cfg); cerr != nil || serr != nil {
		t.Errorf("mutual TLS: client %v, server %v", cerr, serr)
	}
}
