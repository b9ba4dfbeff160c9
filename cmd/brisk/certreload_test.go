package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/certs"
)

// writePair writes a new self-signed certificate for 127.0.0.1 and its
// key to certFile and keyFile and returns its fingerprint.
func writePair(t *testing.T, certFile, keyFile string) string {
	t.Helper()
	cert, err := selfSigned("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c, k, err := certs.PEM(cert)
	if err != nil {
		t.Fatal(err)
	}
	// Written aside and renamed in, as certbot and cert-manager do.
	for name, b := range map[string][]byte{certFile: c, keyFile: k} {
		if err := os.WriteFile(name+".new", b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(name+".new", name); err != nil {
			t.Fatal(err)
		}
	}
	return fingerprint(cert)
}

// TestServeCertReload: new -cert and -key files are served without a
// restart; a pair that does not load (a key of another certificate) is
// logged and the previous certificate served on.
func TestServeCertReload(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	first := writePair(t, certFile, keyFile)
	o := serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{certFile: certFile, keyFile: keyFile}}
	url, stderr, stop := startServe(t, o)
	defer stop()
	if _, seen := getTLS(t, url+"plaintext"); seen != first {
		t.Fatalf("certificate %s, want %s", seen, first)
	}
	second := writePair(t, certFile, keyFile)
	waitCert(t, url, second)
	if !strings.Contains(stderr.String(), "certificate reloaded") {
		t.Fatalf("no log line for the reload:\n%s", stderr)
	}

	other := filepath.Join(dir, "other")
	writePair(t, other+".crt", other+".key")
	time.Sleep(10 * time.Millisecond) // a modification time of its own
	if err := os.Rename(other+".key", keyFile); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * certCheckEvery)
	for !strings.Contains(stderr.String(), "certificate not reloaded") {
		if time.Now().After(deadline) {
			t.Fatalf("a mismatched key was not reported:\n%s", stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if body, seen := getTLS(t, url+"plaintext"); body != "Hello, World!" || seen != second {
		t.Fatalf("after a bad pair: %q with %s, want the previous certificate %s", body, seen, second)
	}
}

// waitCert waits until url presents the certificate want.
func waitCert(t *testing.T, url, want string) {
	t.Helper()
	deadline := time.Now().Add(3 * certCheckEvery)
	for {
		_, seen := getTLS(t, url+"plaintext")
		if seen == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %s after %v, want %s", seen, 3*certCheckEvery, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSelfSignedKept: -tls with -tls-file presents the same certificate
// at each start; the file is private (0600); one that does not name the
// hosts, or does not parse, is replaced.
func TestSelfSignedKept(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub", "self-signed.pem")
	printed := func() string {
		lines, stop := startServeLines(t, serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{tls: true, keepFile: file}}, 2)
		defer stop()
		url := strings.TrimPrefix(lines[0], "brisk: serving ")
		fp := lines[1][strings.LastIndex(lines[1], " ")+1:]
		if _, seen := getTLS(t, url+"plaintext"); seen != fp {
			t.Fatalf("printed %s, presented %s", fp, seen)
		}
		return fp
	}
	first := printed()
	if second := printed(); second != first {
		t.Fatalf("second start presented %s, the first %s", second, first)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("kept file: %v, mode %v; want 0600", err, fi.Mode())
	}
	if _, made, err := keptSelfSigned(file, "example.test"); !made || err != nil {
		t.Fatalf("a certificate for other hosts was reused (made %v, %v)", made, err)
	}
	os.WriteFile(file, []byte("not PEM"), 0o600)
	if third := printed(); third == first {
		t.Fatal("a file that does not parse was not replaced")
	}
}
