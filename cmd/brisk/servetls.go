package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/h2"
)

// selfSignedHosts are the names the certificate of `brisk serve -tls`
// is made for.
var selfSignedHosts = []string{"localhost", "127.0.0.1", "::1"}

// tlsOptions are the flags of `brisk serve` for HTTPS and HTTP/2.
type tlsOptions struct {
	tls       bool          // HTTPS with a self-signed certificate, kept in keepFile
	certFile  string        // HTTPS with this PEM certificate chain...
	keyFile   string        // ...and this PEM private key
	h2c       bool          // HTTP/2 with prior knowledge on cleartext
	keepFile  string        // -tls-file: where -tls keeps its certificate; "": made per start
	generated string        // after configure: the self-signed certificate's SHA-256 fingerprint
	reloader  *certReloader // after configure with -cert: reloads it when the files change
}

var (
	errCertKey = errors.New("-cert and -key go together")
	errH2CTLS  = errors.New("-h2c is for cleartext: HTTPS offers h2 by ALPN")
)

// register adds the flags to fs.
func (o *tlsOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.tls, "tls", false, "serve HTTPS with a self-signed certificate for "+strings.Join(selfSignedHosts, ", ")+", kept in -tls-file (its fingerprint is printed)")
	fs.StringVar(&o.certFile, "cert", "", "serve HTTPS with the PEM certificate chain in `FILE` (with -key), reloaded when the files change")
	fs.StringVar(&o.keyFile, "key", "", "the PEM private key in `FILE` of -cert")
	fs.StringVar(&o.keepFile, "tls-file", defaultSelfSignedFile(), "with -tls, keep the self-signed certificate and key in `FILE` (PEM, mode 0600), so that restarts present the same one; made anew when missing or valid for less than a day (\"\": a new one per start)")
	fs.BoolVar(&o.h2c, "h2c", false, "also serve HTTP/2 with prior knowledge on cleartext (HTTPS always offers h2)")
}

// https reports whether the options ask for HTTPS.
func (o *tlsOptions) https() bool { return o.tls || o.certFile != "" }

// configure checks the options and sets srv up before it listens: its
// certificate (the one in -cert and -key, reloaded when the files
// change, or for -tls alone a self-signed one, kept in -tls-file) and
// HTTP/2, for srv.Handler, over HTTPS (ALPN h2) and with -h2c on
// cleartext. closeTLS stops the reloading.
func (o *tlsOptions) configure(srv *brisk.Server) error {
	if (o.certFile == "") != (o.keyFile == "") {
		return errCertKey
	}
	if o.https() && o.h2c {
		return errH2CTLS
	}
	if o.https() || o.h2c {
		srv.H2C = o.h2c
		if err := h2.Configure(srv, h2.Config{}); err != nil {
			return err
		}
	}
	var cert tls.Certificate
	var err error
	switch {
	case o.certFile != "":
		r, err := newCertReloader(o.certFile, o.keyFile, srv.Logger)
		if err != nil {
			return err
		}
		r.watch(certCheckEvery)
		o.reloader = r
		srv.TLSConfig = &tls.Config{GetCertificate: r.getCertificate}
		return nil
	case o.tls && o.keepFile != "":
		var made bool
		cert, made, err = keptSelfSigned(o.keepFile, selfSignedHosts...)
		if err != nil && made && cert.Leaf != nil { // usable, not kept
			srv.Logger.Warn("brisk: -tls certificate not kept", "file", o.keepFile, "err", err)
			err = nil
		}
		o.generated = fingerprint(cert)
	case o.tls:
		cert, err = selfSigned(selfSignedHosts...)
		o.generated = fingerprint(cert)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	return nil
}

// closeTLS stops reloading the -cert files.
func (o *tlsOptions) closeTLS() { o.reloader.close() }

// serveOn serves srv on ln, with TLS when asked.
func (o *tlsOptions) serveOn(srv *brisk.Server, ln net.Listener) error {
	if o.https() {
		return srv.ServeTLS(ln, "", "")
	}
	return srv.Serve(ln)
}

// url returns the URL of the root served on addr.
func (o *tlsOptions) url(addr net.Addr) string {
	u := baseURL(addr)
	if o.https() {
		u = "https://" + strings.TrimPrefix(u, "http://")
	}
	return u
}

// note is the line printed after the URL: the self-signed certificate's
// fingerprint, or "" for none.
func (o *tlsOptions) note() string {
	if o.generated == "" {
		return ""
	}
	return fmt.Sprintf("brisk: self-signed certificate for %s, SHA-256 fingerprint %s",
		strings.Join(selfSignedHosts, ", "), o.generated)
}
