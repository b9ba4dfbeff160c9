package main

import (
	"bytes"
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/quic-go/quic-go/http3"
)

// TestServeH3: `brisk serve -tls -h3` answers quic-go's HTTP/3 client on
// the UDP port of its TCP one, and its HTTPS responses advertise it with
// Alt-Svc; it shuts down when asked (exit 0).
func TestServeH3(t *testing.T) {
	lines, stop := startServeLines(t, serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{tls: true}, h3: h3Options{on: true}}, 3)
	url, _ := strings.CutPrefix(lines[0], "brisk: serving ")
	udp, ok := strings.CutPrefix(lines[2], "brisk: HTTP/3 on udp ")
	if !ok || !strings.Contains(url, "://"+udp+"/") {
		t.Fatalf("lines %q: want HTTP/3 on the TCP address %s", lines, url)
	}
	tr := &http3.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} // self-signed
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	resp, err := client.Get(url + "plaintext")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Proto != "HTTP/3.0" || string(b) != "Hello, World!" {
		t.Fatalf("GET /plaintext over HTTP/3: %s %q", resp.Proto, b)
	}
	tr.Close()
	h1 := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	defer h1.CloseIdleConnections()
	resp, err = (&http.Client{Transport: h1, Timeout: 10 * time.Second}).Get(url + "plaintext")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	port := udp[strings.LastIndex(udp, ":"):]
	if got := resp.Header.Get("Alt-Svc"); !strings.HasPrefix(got, `h3="`+port+`"`) {
		t.Errorf("Alt-Svc over HTTPS: %q", got)
	}
	if code := stop(); code != exitOK {
		t.Fatalf("exit %d", code)
	}
}

// TestServeH3NeedsTLS: -h3 without -tls or -cert fails before listening.
func TestServeH3NeedsTLS(t *testing.T) {
	var stdout bytes.Buffer
	var stderr syncbuf.Buffer
	code := serve(t.Context(), serveOptions{addr: "127.0.0.1:0", h3: h3Options{on: true}}, &stdout, &stderr)
	if code != exitFail || !strings.Contains(stderr.String(), errH3TLS.Error()) {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
