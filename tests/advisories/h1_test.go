package advisories

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// h1Malformed is one request that an advisory shows two HTTP/1.1 parsers
// reading differently (the raw material of request smuggling): brisk must
// answer it with the status given and close the connection, never run the
// handler.
type h1Malformed struct {
	id, name string
	raw      string
	status   int
}

// post returns a POST request to / with the given extra field lines (each
// ending in CRLF) and body.
func post(fields, body string) string {
	return "POST / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n" + body
}

var h1Cases = []h1Malformed{
	// fasthttp PR 1719: Content-Length and Transfer-Encoding together.
	{"fasthttp-1719", "cl_and_te", post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"), 400},
	{"fasthttp-1719", "te_and_cl", post("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "0\r\n\r\n"), 400},
	{"fasthttp-1719", "cl_twice_differ", post("Content-Length: 1\r\nContent-Length: 2\r\n", "ab"), 400},
	{"fasthttp-1719", "cl_list", post("Content-Length: 1, 2\r\n", "ab"), 400},
	{"fasthttp-1719", "cl_plus", post("Content-Length: +1\r\n", "a"), 400},
	// fasthttp PR 1794: CR and NUL inside a field value.
	{"fasthttp-1794", "cr_in_value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400},
	{"fasthttp-1794", "nul_in_value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n", 400},
	{"fasthttp-1794", "bare_lf_field_line", "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n", 400},
	// fasthttp PR 1899: LF inside a chunk extension.
	{"fasthttp-1899", "lf_in_chunk_ext", post("Transfer-Encoding: chunked\r\n", "1;a\nb\r\nx\r\n0\r\n\r\n"), 400},
	// fasthttp PR 2330: Transfer-Encoding on HTTP/1.0 (RFC 9112 §6.1).
	{"fasthttp-2330", "te_http10", "POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400},
	// CVE-2025-22871 (net/http): a bare LF ending a chunk-size line.
	{"CVE-2025-22871", "bare_lf_chunk_size", post("Transfer-Encoding: chunked\r\n", "1\nx\r\n0\r\n\r\n"), 400},
	{"CVE-2025-22871", "bare_lf_after_chunk_data", post("Transfer-Encoding: chunked\r\n", "1\r\nx\n0\r\n\r\n"), 400},
	{"CVE-2025-22871", "bare_lf_last_chunk", post("Transfer-Encoding: chunked\r\n", "1\r\nx\r\n0\n\r\n"), 400},
	// Jetty CVE-2026-2332 and Kestrel CVE-2025-55315 ("funky chunks"):
	// chunk lines that ends the extension or the data in different places
	// for different parsers.
	{"CVE-2026-2332", "quoted_ext_lf", post("Transfer-Encoding: chunked\r\n", "1;a=\"b\nc\"\r\nx\r\n0\r\n\r\n"), 400},
	{"CVE-2026-2332", "quoted_ext_crlf", post("Transfer-Encoding: chunked\r\n", "1;a=\"b\r\n0\r\n\r\nc\"\r\nx\r\n0\r\n\r\n"), 400},
	{"CVE-2025-55315", "ext_bare_lf", post("Transfer-Encoding: chunked\r\n", "1;\nx\r\n0\r\n\r\n"), 400},
	{"CVE-2025-55315", "ext_bare_cr", post("Transfer-Encoding: chunked\r\n", "1;a\rx\r\nx\r\n0\r\n\r\n"), 400},
	{"CVE-2025-55315", "data_longer_than_size", post("Transfer-Encoding: chunked\r\n", "1\r\nxx\r\n0\r\n\r\n"), 400},
	{"CVE-2025-55315", "size_0x_prefix", post("Transfer-Encoding: chunked\r\n", "0x1\r\nx\r\n0\r\n\r\n"), 400},
	{"CVE-2025-55315", "size_leading_space", post("Transfer-Encoding: chunked\r\n", " 1\r\nx\r\n0\r\n\r\n"), 400},
	{"CVE-2025-55315", "size_overflow", post("Transfer-Encoding: chunked\r\n", "10000000000000001\r\nx\r\n0\r\n\r\n"), 400},
	// CVE-2019-16276 (net/http): whitespace before the colon.
	{"CVE-2019-16276", "space_before_colon", "GET / HTTP/1.1\r\nHost: a\r\nX : b\r\n\r\n", 400},
	// CVE-2022-1705 (net/http): Transfer-Encoding values read as chunked.
	{"CVE-2022-1705", "te_chunked_twice", post("Transfer-Encoding: chunked, chunked\r\n", "0\r\n\r\n"), 400},
	{"CVE-2022-1705", "te_chunked_suffix", post("Transfer-Encoding: xchunked\r\n", "0\r\n\r\n"), 501},
	{"CVE-2022-1705", "te_empty_element", post("Transfer-Encoding: , chunked\r\n", "0\r\n\r\n"), 400},
	// HTTP Garden (golang/go#79363 family): obs-fold in a request.
	{"http-garden", "obs_fold", "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", 400},
}

// TestH1Smuggling runs every h1Cases row on its own connection.
func TestH1Smuggling(t *testing.T) {
	addr, _ := serve(t, &brisk.Server{Handler: echoTarget})
	for _, tc := range h1Cases {
		t.Run(tc.id+"/"+tc.name, func(t *testing.T) {
			a := exchange(t, addr, tc.raw)
			if a.status != tc.status || !a.closed {
				t.Errorf("status %d closed=%v (body %q), want %d and the connection closed", a.status, a.closed, a.body, tc.status)
			}
		})
	}
}

// TestCVE_2023_39326_ChunkExtensions sends a chunked body of one-byte
// chunks each carrying a 4 KiB extension, 64 MiB in all: brisk must
// refuse it with 400 (excessive chunk overhead) and close the connection
// having read a bounded amount, not all of it.
func TestCVE_2023_39326_ChunkExtensions(t *testing.T) {
	addr, ln := serve(t, &brisk.Server{Handler: echoTarget})
	nc := dial(t, addr)
	chunk := "1;" + strings.Repeat("a", 4<<10) + "\r\nx\r\n"
	const total = 64 << 20
	go func() {
		io.WriteString(nc, post("Transfer-Encoding: chunked\r\n", ""))
		big := strings.Repeat(chunk, 256)
		for sent := 0; sent < total; sent += len(big) {
			if _, err := io.WriteString(nc, big); err != nil {
				return
			}
		}
	}()
	a := readAnswer(t, nc)
	if a.status != 400 || !a.closed {
		t.Fatalf("status %d closed=%v, want 400 and closed", a.status, a.closed)
	}
	if n := ln.read.Load(); n > 8<<20 {
		t.Errorf("server read %d bytes of a %d-byte body, want < 8 MiB", n, total)
	}
}

// TestCVE_2023_24534_ManyFieldLines sends a head of 100 000 empty-valued
// field lines (net/http allocated for every line before checking the
// limit): 431, the connection closed after at most MaxHeaderBytes plus a
// read buffer.
func TestCVE_2023_24534_ManyFieldLines(t *testing.T) {
	addr, ln := serve(t, &brisk.Server{Handler: echoTarget})
	nc := dial(t, addr)
	go func() {
		io.WriteString(nc, "GET / HTTP/1.1\r\nHost: a\r\n")
		io.WriteString(nc, strings.Repeat("a:\r\n", 100000))
		io.WriteString(nc, "\r\n")
	}()
	a := readAnswer(t, nc)
	if a.status != 431 || !a.closed {
		t.Fatalf("status %d closed=%v, want 431 and closed", a.status, a.closed)
	}
	if n := ln.read.Load(); n > 2*brisk.DefaultMaxHeaderBytes {
		t.Errorf("server read %d bytes, want <= 2*MaxHeaderBytes", n)
	}
}

// TestCVE_2026_42507_NoEcho: error responses and the errors a handler
// or an OnReject hook sees never carry the client's bytes (net/textproto
// put raw input in its errors: text injected into logs). The request
// holds a marker in a malformed field name, a field value with a
// control byte, and a malformed chunk size.
func TestCVE_2026_42507_NoEcho(t *testing.T) {
	const marker = "INJECTED<script>"
	var mu = make(chan string, 16)
	s := &brisk.Server{
		Handler: func(c *brisk.Ctx) { // a malformed body reaches the handler
			if _, err := c.Request.Body(); err != nil {
				mu <- err.Error()
				c.Response.SetStatusCode(brisk.ErrorStatus(err))
			}
		},
		OnReject: func(r brisk.Rejection) {
			mu <- fmt.Sprint(r.Err)
		},
	}
	addr, _ := serve(t, s)
	for _, raw := range []string{
		"GET / HTTP/1.1\r\nHost: a\r\n" + marker + ": b\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a\r\nX: " + marker + "\x01\r\n\r\n",
		"GET /" + marker + "\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
		post("Transfer-Encoding: chunked\r\n", marker+"\r\n\r\n"),
		"GET / HTTP/1.1\r\nHost: " + marker + "\r\n\r\n",
	} {
		a := exchange(t, addr, raw)
		if a.status < 400 || contains(a.body, "INJECTED") {
			t.Errorf("%q: status %d body %q: want an error status without the client's bytes", raw, a.status, a.body)
		}
		select {
		case e := <-mu:
			if contains(e, "INJECTED") {
				t.Errorf("%q: OnReject error %q carries the client's bytes", raw, e)
			}
		case <-time.After(ioTimeout):
			t.Errorf("%q: no OnReject call", raw)
		}
	}
}

// readAnswer reads one response from nc and whether the connection was
// closed after it.
func readAnswer(t *testing.T, nc io.Reader) answer {
	t.Helper()
	b, err := io.ReadAll(nc)
	var a answer
	if i := bytes.Index(b, []byte("\r\n\r\n")); i > 0 {
		fmt.Sscanf(string(b), "HTTP/1.1 %d", &a.status)
		a.body = string(b[i+4:])
	}
	var ne net.Error
	a.closed = !(errors.As(err, &ne) && ne.Timeout()) // EOF or reset, not the deadline
	return a
}

// TestResponseSplitting: fasthttp PR 2182 (CRLF through the setters of
// the first line and fields) on the server side: a handler, native or
// net/http through FromHTTP, that puts CR or LF into a field value, a
// field name or the reason phrase must not split the response: the
// client never sees the injected field.
func TestResponseSplitting(t *testing.T) {
	const inject = "a\r\nX-Injected: 1"
	for _, tc := range []struct {
		name string
		h    brisk.Handler
	}{
		{"field_value", func(c *brisk.Ctx) { c.Response.Header.Set("X-A", inject) }},
		{"field_name", func(c *brisk.Ctx) { c.Response.Header.Set("X-Injected: 1\r\nX-A", "a") }},
		{"location", func(c *brisk.Ctx) { c.Response.SetStatusCode(302); c.Response.Header.Set("Location", "/"+inject) }},
		{"reason", func(c *brisk.Ctx) { c.Response.SetReason("OK\r\nX-Injected: 1") }},
		{"nethttp_field_value", brisk.FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-A", inject)
		}))},
		{"nethttp_field_name", brisk.FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["X-Injected: 1\r\nX-A"] = []string{"a"}
		}))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, _ := serve(t, &brisk.Server{Handler: tc.h})
			nc := dial(t, addr)
			io.WriteString(nc, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
			b, _ := io.ReadAll(nc)
			if bytes.Contains(b, []byte("\nX-Injected")) || !bytes.HasPrefix(b, []byte("HTTP/1.1 ")) {
				t.Errorf("response split:\n%s", b)
			}
		})
	}
}
