package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/certs"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"golang.org/x/net/http2"
)

//lint:file-ignore SA1019 x/net v0.62.0 deprecates http2.Transport for net/http's; these tests keep the x/net client that the server side is tested against

// startServeLines runs serve with o and returns the first n lines it
// printed on stdout and a stop function returning the exit status.
func startServeLines(t *testing.T, o serveOptions, n int) (lines []string, stop func() int) {
	t.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	var stderr syncbuf.Buffer
	go func() {
		exit <- serve(ctx, o, pw, &stderr)
		pw.Close()
	}()
	br := bufio.NewReader(pr)
	for range n {
		line, err := br.ReadString('\n')
		if err != nil {
			cancel()
			t.Fatalf("stdout ended after %q: %v; stderr %q", lines, err, stderr.String())
		}
		lines = append(lines, strings.TrimSpace(line))
	}
	go io.Copy(io.Discard, br)
	return lines, func() int {
		cancel()
		select {
		case code := <-exit:
			return code
		case <-time.After(15 * time.Second):
			t.Fatal("serve did not return after cancel")
			return -1
		}
	}
}

// getTLS GETs url over HTTP/1.1 without verifying the certificate and
// returns the body and the fingerprint of the certificate presented.
func getTLS(t *testing.T, url string) (body, fingerprint string) {
	t.Helper()
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(resp.TLS.PeerCertificates[0].Raw)
	hex := make([]string, len(sum))
	for i, c := range sum {
		hex[i] = fmt.Sprintf("%02X", c)
	}
	return string(b), strings.Join(hex, ":")
}

// TestServeSelfSigned: -tls serves HTTPS with a certificate made at start
// and prints its fingerprint, which is the one the client sees.
func TestServeSelfSigned(t *testing.T) {
	lines, stop := startServeLines(t, serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{tls: true}}, 2)
	defer stop()
	url, ok := strings.CutPrefix(lines[0], "brisk: serving ")
	if !ok || !strings.HasPrefix(url, "https://127.0.0.1:") {
		t.Fatalf("first line %q, want an https URL", lines[0])
	}
	prefix := "brisk: self-signed certificate for localhost, 127.0.0.1, ::1, SHA-256 fingerprint "
	printed, ok := strings.CutPrefix(lines[1], prefix)
	if !ok {
		t.Fatalf("second line %q, want %q...", lines[1], prefix)
	}
	body, seen := getTLS(t, url+"plaintext")
	if body != "Hello, World!" || seen != printed {
		t.Fatalf("GET /plaintext: %q with certificate %s; want Hello, World! with %s", body, seen, printed)
	}
}

// TestServeCertFiles: -cert and -key serve HTTPS with those files; one
// without the other, or a missing file, fails before listening.
func TestServeCertFiles(t *testing.T) {
	cert, err := selfSigned("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c, k, err := certs.PEM(cert)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, c, 0o600)
	os.WriteFile(keyFile, k, 0o600)

	lines, stop := startServeLines(t, serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{certFile: certFile, keyFile: keyFile}}, 1)
	defer stop()
	url := strings.TrimPrefix(lines[0], "brisk: serving ")
	if body, seen := getTLS(t, url+"plaintext"); body != "Hello, World!" || seen != fingerprint(cert) {
		t.Fatalf("GET /plaintext: %q with certificate %s", body, seen)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-cert", certFile}, "brisk: -cert and -key go together\n"},
		{[]string{"-cert", certFile, "-key", filepath.Join(dir, "missing.pem")}, "brisk: open " + filepath.Join(dir, "missing.pem") + ": no such file or directory\n"},
	} {
		code, stdout, stderr := runArgs(append([]string{"serve", "-addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitFail || stdout != "" || stderr != tc.want {
			t.Errorf("serve %q: exit %d, stdout %q, stderr %q; want 1, \"\", %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestServeHTTP2: the site answers HTTP/2 over HTTPS (ALPN h2) and, with
// -h2c, with prior knowledge on cleartext; -h2c with -tls is refused.
func TestServeHTTP2(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    tlsOptions
		tr   *http2.Transport
	}{
		{"tls", tlsOptions{tls: true}, &http2.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}},
		{"h2c", tlsOptions{h2c: true}, &http2.Transport{AllowHTTP: true,
			DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, network, addr)
			}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, stop := startServeLines(t, serveOptions{addr: "127.0.0.1:0", tlsOptions: tc.o}, 1)
			defer stop()
			defer tc.tr.CloseIdleConnections()
			url := strings.TrimPrefix(lines[0], "brisk: serving ")
			resp, err := (&http.Client{Transport: tc.tr, Timeout: 10 * time.Second}).Get(url + "plaintext")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.Proto != "HTTP/2.0" || string(body) != "Hello, World!" || resp.Header.Get("Server") != "brisk" {
				t.Fatalf("GET /plaintext: %s %q Server=%q, want HTTP/2.0 Hello, World! from brisk", resp.Proto, body, resp.Header.Get("Server"))
			}
		})
	}
	code, _, stderr := runArgs("serve", "-addr", "127.0.0.1:0", "-tls", "-h2c")
	if want := "brisk: -h2c is for cleartext: HTTPS offers h2 by ALPN\n"; code != exitFail || stderr != want {
		t.Errorf("-tls -h2c: exit %d, stderr %q; want 1, %q", code, stderr, want)
	}
}

// TestServeHTTP2Deploy: /readyz and, with -metrics, /metrics answer over
// HTTP/2 as over HTTP/1.1 (h2.Configure must see the wrapped handler).
func TestServeHTTP2Deploy(t *testing.T) {
	o := serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{h2c: true}}
	o.deploy.metricsOn = true
	lines, stop := startServeLines(t, o, 1)
	defer stop()
	tr := &http2.Transport{AllowHTTP: true,
		DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}}
	defer tr.CloseIdleConnections()
	url := strings.TrimPrefix(lines[0], "brisk: serving ")
	for _, tc := range []struct{ path, prefix string }{
		{"readyz", "ready"},
		{"metrics", "# HELP brisk_"},
	} {
		resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get(url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Proto != "HTTP/2.0" || resp.StatusCode != 200 || !strings.HasPrefix(string(body), tc.prefix) {
			t.Errorf("GET /%s: %s %d %.40q; want HTTP/2.0 200 %q...", tc.path, resp.Proto, resp.StatusCode, body, tc.prefix)
		}
	}
}
