package brisk

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/certs"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// testPKI is one CA with a server certificate for 127.0.0.1 and
// localhost and a client certificate, made once per test binary.
type testPKI struct {
	ca     *certs.Authority
	server tls.Certificate
	client tls.Certificate
}

var (
	pkiOnce sync.Once
	pki     testPKI
	pkiErr  error
)

func getPKI(t testing.TB) *testPKI {
	t.Helper()
	pkiOnce.Do(func() {
		if pki.ca, pkiErr = certs.NewAuthority("brisk test CA"); pkiErr != nil {
			return
		}
		if pki.server, pkiErr = pki.ca.Server("127.0.0.1", "localhost"); pkiErr != nil {
			return
		}
		pki.client, pkiErr = pki.ca.Client("alice")
	})
	if pkiErr != nil {
		t.Fatal(pkiErr)
	}
	return &pki
}

// clientTLS is a client configuration trusting the test CA.
func (p *testPKI) clientTLS() *tls.Config {
	return &tls.Config{RootCAs: p.ca.Pool, ServerName: "127.0.0.1"}
}

// writeKeyPair writes cert as PEM files in dir and returns their paths.
func writeKeyPair(t testing.TB, dir string, cert tls.Certificate) (certFile, keyFile string) {
	t.Helper()
	c, k, err := certs.PEM(cert)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, c, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, k, 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// serveTLS runs s.ServeTLS on 127.0.0.1:0 with the files given (empty
// for none) until the test ends, and returns the address.
func serveTLS(t *testing.T, s *Server, certFile, keyFile string) string {
	t.Helper()
	if s.Logger == nil {
		s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.ServeTLS(ln, certFile, keyFile) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("ServeTLS returned %v, want ErrServerClosed", err)
		}
	})
	return ln.Addr().String()
}

// dialTLS connects to addr with cfg and completes the handshake.
func dialTLS(t *testing.T, addr string, cfg *tls.Config) (*tls.Conn, error) {
	t.Helper()
	d := &net.Dialer{Timeout: 5 * time.Second}
	tc, err := tls.DialWithDialer(d, "tcp", addr, cfg)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { tc.Close() })
	tc.SetDeadline(time.Now().Add(10 * time.Second))
	return tc, nil
}

// tlsGet sends a GET for target on tc and returns the status code and body.
func tlsGet(t *testing.T, tc *tls.Conn, br *bufio.Reader, target string) (int, string) {
	t.Helper()
	if _, err := io.WriteString(tc, get(target)); err != nil {
		t.Fatalf("write: %v", err)
	}
	resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp.StatusCode, string(body)
}

// tlsInfo answers with what Ctx.TLS shows: version, ALPN protocol, server
// name, and the peer's common name and number of verified chains.
func tlsInfo(c *Ctx) {
	st := c.TLS()
	if st == nil {
		c.Response.SetBodyString("cleartext")
		return
	}
	peer := "-"
	if len(st.PeerCertificates) > 0 {
		peer = st.PeerCertificates[0].Subject.CommonName
	}
	c.Response.SetBodyString(tls.VersionName(st.Version) + " alpn=" + st.NegotiatedProtocol +
		" sni=" + st.ServerName + " peer=" + peer + " chains=" + string(rune('0'+len(st.VerifiedChains))))
}

func TestServeTLSFiles(t *testing.T) {
	p := getPKI(t)
	certFile, keyFile := writeKeyPair(t, t.TempDir(), p.server)
	addr := serveTLS(t, &Server{Handler: tlsInfo}, certFile, keyFile)
	cfg := p.clientTLS()
	cfg.ServerName = "localhost"
	cfg.NextProtos = []string{"h2", "http/1.1"}
	tc, err := dialTLS(t, addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(tc)
	for range 2 { // keep-alive over TLS
		code, body := tlsGet(t, tc, br, "/")
		// No HTTP2 server: ALPN offers http/1.1 alone.
		if want := "TLS 1.3 alpn=http/1.1 sni=localhost peer=- chains=0"; code != 200 || body != want {
			t.Fatalf("got %d %q, want 200 %q", code, body, want)
		}
	}
}

func TestCtxTLSCleartext(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: tlsInfo})
	if _, body := ts.connect().roundTrip(get("/")); body != "cleartext" {
		t.Fatalf("body %q, want cleartext", body)
	}
}

func TestServeTLSNoCertificate(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{}
	if err := s.ServeTLS(ln, "", ""); !errors.Is(err, errNoCertificate) {
		t.Fatalf("ServeTLS: %v, want errNoCertificate", err)
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("listener not closed: Accept returned %v", err)
	}
	if err := s.ServeTLS(ln, "missing.pem", "missing.key"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ServeTLS with missing files: %v, want os.ErrNotExist", err)
	}
}

func TestTLSMinVersion(t *testing.T) {
	p := getPKI(t)
	addr := serveTLS(t, &Server{Handler: tlsInfo, TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}, "", "")
	cfg := p.clientTLS()
	cfg.MinVersion, cfg.MaxVersion = tls.VersionTLS11, tls.VersionTLS11
	if _, err := dialTLS(t, addr, cfg); err == nil || !strings.Contains(err.Error(), "protocol version") {
		t.Fatalf("TLS 1.1 handshake: %v, want a protocol version alert", err)
	}
	cfg.MaxVersion = tls.VersionTLS12
	tc, err := dialTLS(t, addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, body := tlsGet(t, tc, bufio.NewReader(tc), "/"); !strings.HasPrefix(body, "TLS 1.2 ") {
		t.Fatalf("body %q, want TLS 1.2", body)
	}
}

// TestTLSClientCertificate is mTLS: a verified client certificate is
// visible to the handler, and a client without one is refused at the
// handshake, before any handler runs.
func TestTLSClientCertificate(t *testing.T) {
	p := getPKI(t)
	var served atomic.Int32
	h := func(c *Ctx) { served.Add(1); tlsInfo(c) }
	addr := serveTLS(t, &Server{Handler: h, TLSConfig: &tls.Config{
		Certificates: []tls.Certificate{p.server},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    p.ca.Pool,
	}}, "", "")

	cfg := p.clientTLS()
	cfg.Certificates = []tls.Certificate{p.client}
	tc, err := dialTLS(t, addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// No ALPN offered; no SNI for an IP address (RFC 6066 §3).
	if _, body := tlsGet(t, tc, bufio.NewReader(tc), "/"); body != "TLS 1.3 alpn= sni= peer=alice chains=1" {
		t.Fatalf("body %q", body)
	}

	stranger := selfSignedClient(t)
	for _, tc := range []struct {
		name  string
		cert  *tls.Certificate
		alert string
	}{
		{"no_certificate", &tls.Certificate{}, "remote error: tls: certificate required"},
		{"unknown_authority", &stranger, "remote error: tls: unknown certificate authority"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := served.Load()
			cfg := p.clientTLS()
			// Sent whatever the server's CertificateRequest asks for.
			cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return tc.cert, nil }
			// TLS 1.3 clients finish their side before the server checks the
			// certificate: the refusal is the alert read next.
			conn, err := dialTLS(t, addr, cfg)
			if err == nil {
				io.WriteString(conn, get("/"))
				_, err = conn.Read(make([]byte, 1))
			}
			if err == nil || err.Error() != tc.alert {
				t.Fatalf("got %v, want %q", err, tc.alert)
			}
			if served.Load() != before {
				t.Fatal("the handler ran for a refused client")
			}
		})
	}
}

func selfSignedClient(t *testing.T) tls.Certificate {
	ca, err := certs.NewAuthority("stranger CA")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Client("mallory")
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// TestTLSCertificateReload swaps the certificate GetCertificate returns
// while the server runs: new connections get the new one, an open
// connection keeps serving.
func TestTLSCertificateReload(t *testing.T) {
	p := getPKI(t)
	next, err := p.ca.Server("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	var current atomic.Pointer[tls.Certificate]
	current.Store(&p.server)
	addr := serveTLS(t, &Server{Handler: tlsInfo, TLSConfig: &tls.Config{
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return current.Load(), nil },
	}}, "", "")

	serial := func(tc *tls.Conn) string {
		return tc.ConnectionState().PeerCertificates[0].SerialNumber.String()
	}
	first, err := dialTLS(t, addr, p.clientTLS())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := serial(first), p.server.Leaf.SerialNumber.String(); got != want {
		t.Fatalf("first certificate serial %s, want %s", got, want)
	}
	current.Store(&next)
	second, err := dialTLS(t, addr, p.clientTLS())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := serial(second), next.Leaf.SerialNumber.String(); got != want {
		t.Fatalf("after reload serial %s, want %s", got, want)
	}
	if code, _ := tlsGet(t, first, bufio.NewReader(first), "/"); code != 200 {
		t.Fatalf("old connection: status %d", code)
	}
}

// TestTLSHandshakeTimeout: a client that connects and sends nothing is
// closed after TLSHandshakeTimeout, logged at debug level, handler unrun.
func TestTLSHandshakeTimeout(t *testing.T) {
	p := getPKI(t)
	var log syncbuf.Buffer
	var served atomic.Bool
	addr := serveTLS(t, &Server{
		Handler:             func(c *Ctx) { served.Store(true) },
		Logger:              slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		TLSConfig:           &tls.Config{Certificates: []tls.Certificate{p.server}},
		TLSHandshakeTimeout: 300 * time.Millisecond,
	}, "", "")
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	start := time.Now()
	nc.SetReadDeadline(start.Add(5 * time.Second))
	n, err := nc.Read(make([]byte, 1))
	elapsed := time.Since(start)
	if n != 0 || err != io.EOF {
		t.Fatalf("read %d bytes, %v; want EOF", n, err)
	}
	if elapsed < 250*time.Millisecond || elapsed > 3*time.Second {
		t.Fatalf("closed after %v, want about 300ms", elapsed)
	}
	if !strings.Contains(log.String(), `level=DEBUG msg="brisk: TLS handshake failed"`) {
		t.Fatalf("debug log %q lacks the handshake failure", log.String())
	}
	if served.Load() {
		t.Fatal("handler ran")
	}
}

// TestTLSPlainHTTP: plain HTTP sent to a TLS port is answered 400.
func TestTLSPlainHTTP(t *testing.T) {
	p := getPKI(t)
	addr := serveTLS(t, &Server{TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}, "", "")
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(nc, get("/"))
	got, _ := io.ReadAll(nc)
	if !bytes.Equal(got, plainHTTPToTLS) {
		t.Fatalf("got %q, want %q", got, plainHTTPToTLS)
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(got)), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 400 || string(body) != "Client sent an HTTP request to an HTTPS server.\n" {
		t.Fatalf("answer %d %q (%v): not a well-framed 400", resp.StatusCode, body, err)
	}
}

// recordConn holds writes while hold is set, until flush, so that
// several TLS records leave in one TCP write.
type recordConn struct {
	net.Conn
	hold bool
	buf  bytes.Buffer
}

func (r *recordConn) Write(p []byte) (int, error) {
	if r.hold {
		return r.buf.Write(p)
	}
	return r.Conn.Write(p)
}

func (r *recordConn) flush() error {
	_, err := r.Conn.Write(r.buf.Bytes())
	r.buf.Reset()
	return err
}

// TestTLSBufferedRecords sends two pipelined requests in two TLS records
// of one TCP segment. crypto/tls returns one record per Read, so after the
// first request the second sits in the *tls.Conn with the socket empty
// (as a first request can, read with the handshake's last flight): a
// server that peeked at the socket before reading would wait for input
// that has arrived, here for IdleTimeout. (Giving a TLS conn its socket's
// RawConn fails this test and TestServeTLSFiles.)
func TestTLSBufferedRecords(t *testing.T) {
	p := getPKI(t)
	addr := serveTLS(t, &Server{Handler: echoPath, IdleTimeout: time.Minute,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}, "", "")
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	rc := &recordConn{Conn: nc}
	tc := tls.Client(rc, p.clientTLS())
	tc.SetDeadline(time.Now().Add(5 * time.Second))
	if err := tc.Handshake(); err != nil {
		t.Fatal(err)
	}
	rc.hold = true
	io.WriteString(tc, get("/one"))
	io.WriteString(tc, get("/two"))
	if err := rc.flush(); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(tc)
	tc.SetReadDeadline(time.Now().Add(2 * time.Second))
	for _, want := range []string{"/one", "/two"} {
		resp, err := http.ReadResponse(br, &http.Request{Method: "GET"})
		if err != nil {
			t.Fatalf("response to %s: %v", want, err)
		}
		body, _ := io.ReadAll(resp.Body)
		if string(body) != want {
			t.Fatalf("body %q, want %q", body, want)
		}
	}
}

// TestTLSShutdownIdle: Shutdown closes an idle TLS connection at once.
func TestTLSShutdownIdle(t *testing.T) {
	p := getPKI(t)
	s := &Server{Handler: echoPath, TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}
	addr := serveTLS(t, s, "", "")
	tc, err := dialTLS(t, addr, p.clientTLS())
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := tlsGet(t, tc, bufio.NewReader(tc), "/"); code != 200 {
		t.Fatalf("status %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if _, err := tc.Read(make([]byte, 1)); err == nil {
		t.Fatal("connection still open after Shutdown")
	}
}

// TestTLSMaxConns: a TLS connection beyond MaxConns gets a 503 once its
// handshake is done, and a silent one is closed within a second or two
// (the 503 path bounds the handshake's reads as well as its writes).
func TestTLSMaxConns(t *testing.T) {
	p := getPKI(t)
	addr := serveTLS(t, &Server{Handler: echoPath, MaxConns: 1,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}, "", "")
	first, err := dialTLS(t, addr, p.clientTLS())
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := tlsGet(t, first, bufio.NewReader(first), "/"); code != 200 {
		t.Fatalf("first connection: status %d", code)
	}

	second, err := dialTLS(t, addr, p.clientTLS())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(second), nil)
	if err != nil || resp.StatusCode != 503 {
		t.Fatalf("second connection: %v, %v; want 503", resp, err)
	}

	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	start := time.Now()
	silent.SetReadDeadline(start.Add(5 * time.Second))
	if _, err := io.ReadAll(silent); err != nil || time.Since(start) > 3*time.Second {
		t.Fatalf("silent connection beyond MaxConns: %v after %v, want closed within ~1s", err, time.Since(start))
	}
}

// TestTLSClientCloseCancels: the watch that reads the connection while
// the handler runs works over TLS: the client's close cancels Ctx.Context.
func TestTLSClientCloseCancels(t *testing.T) {
	p := getPKI(t)
	cancelled := make(chan struct{})
	h := func(c *Ctx) {
		select {
		case <-c.Context().Done():
			close(cancelled)
		case <-time.After(5 * time.Second):
		}
	}
	addr := serveTLS(t, &Server{Handler: h,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.server}}}, "", "")
	tc, err := dialTLS(t, addr, p.clientTLS())
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(tc, get("/"))
	time.Sleep(50 * time.Millisecond)
	tc.Close()
	select {
	case <-cancelled:
	case <-time.After(3 * time.Second):
		t.Fatal("Ctx.Context not cancelled after the TLS client closed")
	}
}

// TestCtxTLSBridged: a brisk handler mounted in net/http (ToHTTP) sees
// the net/http request's TLS state in Ctx.TLS, and nil on cleartext.
func TestCtxTLSBridged(t *testing.T) {
	h := ToHTTP(tlsInfo)
	for _, tc := range []struct {
		name  string
		start func(http.Handler) *httptest.Server
		want  string
	}{
		{"tls", httptest.NewTLSServer, "TLS 1.3 alpn="},
		{"cleartext", httptest.NewServer, "cleartext"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := tc.start(h)
			defer ts.Close()
			resp, err := ts.Client().Get(ts.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if !strings.HasPrefix(string(body), tc.want) {
				t.Fatalf("body %q, want it to start with %q", body, tc.want)
			}
		})
	}
}
