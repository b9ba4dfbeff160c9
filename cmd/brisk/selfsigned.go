package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// selfSignedValidity is how long the certificate of `brisk serve -tls`
// is valid, from an hour before it is made (to survive clock skew).
const selfSignedValidity = 7 * 24 * time.Hour

// selfSigned makes a self-signed server certificate with a new ECDSA
// P-256 key for hosts (DNS names or IP addresses), its common name the
// first host. It is meant to be trusted for a test setup only
// (keptSelfSigned keeps one across restarts).
func selfSigned(hosts ...string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: hosts[0], Organization: []string{"brisk test"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(selfSignedValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

// fingerprint is the SHA-256 digest of cert's leaf (DER), in the
// colon-separated upper-case hex that browsers and openssl show.
func fingerprint(cert tls.Certificate) string {
	sum := sha256.Sum256(cert.Certificate[0])
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// selfSignedRenewal is the least validity left for a self-signed
// certificate kept in a file to be used again.
const selfSignedRenewal = 24 * time.Hour

// keptSelfSigned returns the self-signed certificate for hosts kept in
// file (PEM: the certificate, then its PKCS #8 key), when it loads,
// names every host and stays valid for selfSignedRenewal more; else it
// makes a new one and writes it to file (mode 0600, its directory made
// 0700 if missing), so that later starts and SIGHUP restarts present the
// same certificate. made reports a new certificate; a file that cannot
// be written is an error, the certificate being usable still.
func keptSelfSigned(file string, hosts ...string) (cert tls.Certificate, made bool, err error) {
	if b, err := os.ReadFile(file); err == nil {
		if cert, err := tls.X509KeyPair(b, b); err == nil && coversHosts(cert.Leaf, hosts) &&
			time.Until(cert.Leaf.NotAfter) > selfSignedRenewal {
			return cert, false, nil
		}
	}
	cert, err = selfSigned(hosts...)
	if err != nil {
		return cert, true, err
	}
	key, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		return cert, true, err
	}
	out := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})
	out = append(out, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key})...)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return cert, true, err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, out, 0o600); err != nil {
		return cert, true, err
	}
	return cert, true, os.Rename(tmp, file)
}

// coversHosts reports whether leaf names every host.
func coversHosts(leaf *x509.Certificate, hosts []string) bool {
	for _, h := range hosts {
		if leaf.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

// defaultSelfSignedFile is where -tls keeps its certificate unless told:
// brisk/self-signed.pem in the user's cache directory; "" when there is
// none.
func defaultSelfSignedFile() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "brisk", "self-signed.pem")
}
