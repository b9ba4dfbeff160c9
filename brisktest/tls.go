package brisktest

import (
	"crypto/tls"
	"crypto/x509"

	"github.com/brisk-http/brisk/internal/testsupport/certs"
)

// TLSCerts is a throwaway public-key infrastructure for tests: a
// certificate authority made with new ECDSA P-256 keys, and a server
// certificate it issued for "localhost", 127.0.0.1 and ::1. Certificates
// are valid from an hour before they are made until a week after. Use it
// in tests and examples only: the keys live in memory for the process's
// lifetime and nothing can revoke them.
//
//	certs := brisktest.NewTLSCerts()
//	srv := &brisk.Server{Handler: h, TLSConfig: certs.ServerConfig()}
//	go srv.ServeTLS(ln, "", "")
//	cl := &brisk.Client{ClientConfig: brisk.ClientConfig{TLSConfig: certs.ClientConfig()}}
type TLSCerts struct {
	// Server is the server certificate, its leaf parsed.
	Server tls.Certificate

	// Pool holds the authority's certificate alone: a client's RootCAs,
	// or a server's ClientCAs to verify certificates from ClientCert.
	Pool *x509.CertPool

	ca *certs.Authority
}

// NewTLSCerts makes a new authority and server certificate. It panics if
// crypto/rand or crypto/x509 fails, which they do not for these inputs.
func NewTLSCerts() *TLSCerts {
	ca, err := certs.NewAuthority("brisktest authority")
	if err != nil {
		panic("brisktest: " + err.Error())
	}
	server, err := ca.Server("localhost", "127.0.0.1", "::1")
	if err != nil {
		panic("brisktest: " + err.Error())
	}
	return &TLSCerts{Server: server, Pool: ca.Pool, ca: ca}
}

// ServerConfig returns a new tls.Config presenting the server
// certificate.
func (c *TLSCerts) ServerConfig() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{c.Server}}
}

// ClientConfig returns a new tls.Config trusting the authority alone
// (RootCAs is Pool), so the server certificate is verified as usual.
// Its ServerName is empty: clients that do not derive one from a URL
// (tls.Client) must set it, to "localhost" for instance.
func (c *TLSCerts) ClientConfig() *tls.Config {
	return &tls.Config{RootCAs: c.Pool}
}

// ClientCert issues a client certificate for mutual TLS, its subject
// common name name. A server with ClientCAs Pool verifies it. It panics
// as NewTLSCerts does.
func (c *TLSCerts) ClientCert(name string) tls.Certificate {
	cert, err := c.ca.Client(name)
	if err != nil {
		panic("brisktest: " + err.Error())
	}
	return cert
}
