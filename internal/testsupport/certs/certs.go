// Package certs makes throwaway X.509 certificates with ECDSA P-256 keys
// for tests: an authority that issues server and client certificates
// (brisktest.TLSCerts wraps it). None of them is meant to be trusted
// beyond one process's lifetime.
package certs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"time"
)

// validity is how long an issued certificate is valid, from an hour ago
// (to survive clock skew between processes).
const validity = 7 * 24 * time.Hour

// Authority is a certificate authority that signs certificates.
type Authority struct {
	Cert *x509.Certificate // the self-signed CA certificate
	Pool *x509.CertPool    // holds only Cert: use as RootCAs or ClientCAs
	key  *ecdsa.PrivateKey
}

// NewAuthority makes a CA whose subject common name is name.
func NewAuthority(name string) (*Authority, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl, err := template(name)
	if err != nil {
		return nil, err
	}
	tmpl.IsCA = true
	tmpl.BasicConstraintsValid = true
	tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &Authority{Cert: cert, Pool: pool, key: key}, nil
}

// Server issues a server certificate for hosts (DNS names or IP
// addresses), its common name the first host.
func (a *Authority) Server(hosts ...string) (tls.Certificate, error) {
	return a.issue(hosts[0], hosts, x509.ExtKeyUsageServerAuth)
}

// Client issues a client certificate (for mTLS) with common name name.
func (a *Authority) Client(name string) (tls.Certificate, error) {
	return a.issue(name, nil, x509.ExtKeyUsageClientAuth)
}

func (a *Authority) issue(name string, hosts []string, usage x509.ExtKeyUsage) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl, err := template(name)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{usage}
	addHosts(tmpl, hosts)
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.Cert, &key.PublicKey, a.key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return certificate(der, key)
}

// PEM returns cert's leaf and private key PEM-encoded, as
// tls.LoadX509KeyPair reads them.
func PEM(cert tls.Certificate) (certPEM, keyPEM []byte, err error) {
	der, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		return nil, nil, err
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	return certPEM, keyPEM, nil
}

func template(name string) (*x509.Certificate, error) {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	return &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name, Organization: []string{"brisk test"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(validity),
	}, nil
}

func addHosts(tmpl *x509.Certificate, hosts []string) {
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
}

func certificate(der []byte, key *ecdsa.PrivateKey) (tls.Certificate, error) {
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}
