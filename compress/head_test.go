package compress

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/files"
	kgzip "github.com/klauspost/compress/gzip"
)

// wireHead is a response head as sent: its status line and its field
// lines in order, less Date and the framing fields, kept apart.
type wireHead struct {
	status  string
	fields  []string // "Name: value"
	length  string   // Content-Length's value; "" when absent
	chunked bool     // Transfer-Encoding: chunked
}

// field returns the value of the first field line named name, or "".
func (h *wireHead) field(name string) string {
	for _, f := range h.fields {
		if n, v, _ := strings.Cut(f, ": "); strings.EqualFold(n, name) {
			return v
		}
	}
	return ""
}

// exchangeHead sends raw (a request head without its final CRLF; the
// connection closes after the response) and returns the response head.
func exchangeHead(t *testing.T, ln *brisktest.Listener, raw string) wireHead {
	t.Helper()
	nc, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	go io.WriteString(nc, raw+"Connection: close\r\n\r\n")
	resp, err := io.ReadAll(nc)
	if err != nil {
		t.Fatal(err)
	}
	return parseHead(t, string(resp))
}

// parseHead parses the response head at the start of resp.
func parseHead(t *testing.T, resp string) wireHead {
	t.Helper()
	head, _, ok := strings.Cut(resp, "\r\n\r\n")
	if !ok {
		t.Fatalf("no end of head in %q", resp)
	}
	lines := strings.Split(head, "\r\n")
	h := wireHead{status: lines[0]}
	for _, l := range lines[1:] {
		name, value, _ := strings.Cut(l, ": ")
		switch strings.ToLower(name) {
		case "date":
		case "content-length":
			h.length = value
		case "transfer-encoding":
			h.chunked = value == "chunked"
		default:
			h.fields = append(h.fields, l)
		}
	}
	return h
}

// TestHeadLikeGet: a HEAD gets the status and fields the GET gets, coding,
// Vary and ETag included, for buffered and streamed handlers, a handler
// that sets only Content-Length on HEAD, and a files.Server; only the
// framing differs: a HEAD the middleware encodes has no Content-Length
// (the compressed length is not computed), others have the GET's. (A
// files.Server answers a HEAD with Range as a plain HEAD, RFC 9110 §14.2:
// its 206 is not compared here.)
func TestHeadLikeGet(t *testing.T) {
	big, small := jsonBody(60000), jsonBody(500)
	buffered := func(body []byte) brisk.Handler {
		return func(c *brisk.Ctx) {
			c.Response.Header.Set("Content-Type", "application/json")
			c.Response.Header.Set("ETag", `"v1"`)
			c.Response.SetBody(body)
		}
	}
	streamed := func(body []byte, declare bool) brisk.Handler {
		return func(c *brisk.Ctx) {
			c.Response.Header.Set("Content-Type", "application/json")
			c.Response.Header.Set("ETag", `"v1"`)
			if declare {
				c.Response.Header.Set("Content-Length", strconv.Itoa(len(body)))
			}
			c.BodyWriter().Write(body)
		}
	}
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	fsrv := &files.Server{FS: fstest.MapFS{
		"big.json":   {Data: big, ModTime: mtime},
		"small.json": {Data: small, ModTime: mtime},
	}}

	const gzip = "Accept-Encoding: gzip\r\n"
	cases := []struct {
		name    string
		h       brisk.Handler
		target  string
		fields  string // request fields, each ending in CRLF
		status  int
		coding  string // Content-Encoding, "" for identity
		vary    bool   // Vary: Accept-Encoding
		etag    string // "" for the handler's "v1" as it is
		chunked bool   // of the GET
	}{
		{"buffered", buffered(big), "/", gzip, 200, Gzip, true, `W/"v1"`, false},
		{"buffered_star", buffered(big), "/", "Accept-Encoding: *\r\n", 200, Zstd, true, `W/"v1"`, false},
		{"head_sets_length", func(c *brisk.Ctx) {
			if string(c.Request.Method()) == "HEAD" {
				c.Response.Header.Set("Content-Length", strconv.Itoa(len(big)))
				c.Response.Header.Set("Content-Type", "application/json")
				c.Response.Header.Set("ETag", `"v1"`)
				return
			}
			buffered(big)(c)
		}, "/", gzip, 200, Gzip, true, `W/"v1"`, false},
		{"streamed_length", streamed(big, true), "/", gzip, 200, Gzip, true, `W/"v1"`, true},
		{"streamed", streamed(big, false), "/", gzip, 200, Gzip, true, `W/"v1"`, true},
		{"small_buffered", buffered(small), "/", gzip, 200, "", true, "", false},
		{"small_streamed_length", streamed(small, true), "/", gzip, 200, "", true, "", false},
		{"identity", buffered(big), "/", "Accept-Encoding: identity\r\n", 200, "", true, "", false},
		{"no_accept_encoding", buffered(big), "/", "", 200, "", true, "", false},
		{"identity_streamed", streamed(big, false), "/", "Accept-Encoding: identity\r\n", 200, "", true, "", true},
		{"not_modified", func(c *brisk.Ctx) {
			c.Response.SetStatusCode(304)
			c.Response.Header.Set("ETag", `"v1"`)
		}, "/", gzip, 304, "", false, "", false},
		{"not_modified_weak", func(c *brisk.Ctx) {
			c.Response.SetStatusCode(304)
			c.Response.Header.Set("ETag", `"v1"`)
		}, "/", gzip + "If-None-Match: W/\"v1\"\r\n", 304, "", true, `W/"v1"`, false},
		{"partial", func(c *brisk.Ctx) {
			buffered(big[:100])(c)
			c.Response.SetStatusCode(206)
			c.Response.Header.Set("Content-Range", "bytes 0-99/"+strconv.Itoa(len(big)))
		}, "/", gzip, 206, "", false, "", false},
		{"file", fsrv.Handle, "/big.json", gzip, 200, Gzip, true, "", true},
		{"file_small", fsrv.Handle, "/small.json", gzip, 200, "", true, "", false},
		{"file_not_modified", fsrv.Handle, "/big.json",
			gzip + "If-Modified-Since: " + mtime.Format(http.TimeFormat) + "\r\n", 304, "", false, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := &brisk.Server{Handler: New(Config{})(tc.h), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
			ln := brisktest.NewListener()
			go srv.Serve(ln)
			defer srv.Shutdown(context.Background())
			req := " " + tc.target + " HTTP/1.1\r\nHost: x\r\n" + tc.fields
			get, head := exchangeHead(t, ln, "GET"+req), exchangeHead(t, ln, "HEAD"+req)
			if head.status != get.status || !slices.Equal(head.fields, get.fields) {
				t.Fatalf("HEAD %s\n%s\nGET %s\n%s", head.status, strings.Join(head.fields, "\n"),
					get.status, strings.Join(get.fields, "\n"))
			}
			if want := "HTTP/1.1 " + strconv.Itoa(tc.status) + " "; !strings.HasPrefix(get.status, want) {
				t.Errorf("status line %q, want %q...", get.status, want)
			}
			if ce := get.field("Content-Encoding"); ce != tc.coding {
				t.Errorf("Content-Encoding %q, want %q", ce, tc.coding)
			}
			if vary := get.field("Vary") == "Accept-Encoding"; vary != tc.vary {
				t.Errorf("Vary %q, want Accept-Encoding: %v", get.field("Vary"), tc.vary)
			}
			if tc.etag != "" && get.field("ETag") != tc.etag {
				t.Errorf("ETag %q, want %q", get.field("ETag"), tc.etag)
			}
			if get.chunked != tc.chunked || head.chunked {
				t.Errorf("chunked: GET %v, HEAD %v; want %v, false", get.chunked, head.chunked, tc.chunked)
			}
			wantHeadLength := get.length
			if tc.coding != "" {
				wantHeadLength = ""
			}
			if head.length != wantHeadLength {
				t.Errorf("HEAD Content-Length %q, want %q (GET's %q)", head.length, wantHeadLength, get.length)
			}
		})
	}
}

// TestHeadOuterMiddleware: an encoded HEAD is not sent before the
// handler chain returns, so a middleware around New that sets a field
// after calling it sets it on HEAD as on GET.
func TestHeadOuterMiddleware(t *testing.T) {
	body := jsonBody(8000)
	inner := New(Config{})(func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "application/json")
		c.Response.SetBody(body)
	})
	srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: func(c *brisk.Ctx) {
		inner(c)
		c.Response.Header.Set("X-Served-By", "brisk")
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	const req = " / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n"
	get, head := exchangeHead(t, ln, "GET"+req), exchangeHead(t, ln, "HEAD"+req)
	if !slices.Equal(head.fields, get.fields) || head.field("X-Served-By") != "brisk" ||
		head.field("Content-Encoding") != Gzip || head.length != "" {
		t.Fatalf("HEAD %q, Content-Length %q\nGET %q", head.fields, head.length, get.fields)
	}
}

// TestHeadPrecompressed: a files.Server's precompressed sibling, which the
// middleware leaves alone, has the same fields on HEAD as on GET, and
// there the length is known: the HEAD has the GET's Content-Length.
func TestHeadPrecompressed(t *testing.T) {
	plain := jsonBody(60000)
	var gz bytes.Buffer
	zw := kgzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	fsrv := &files.Server{Precompressed: true, FS: fstest.MapFS{
		"a.json":    {Data: plain, ModTime: mtime},
		"a.json.gz": {Data: gz.Bytes(), ModTime: mtime},
	}}
	srv := &brisk.Server{Handler: New(Config{})(fsrv.Handle), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	const req = " /a.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n"
	get, head := exchangeHead(t, ln, "GET"+req), exchangeHead(t, ln, "HEAD"+req)
	if head.status != get.status || !slices.Equal(head.fields, get.fields) || get.field("Content-Encoding") != Gzip ||
		get.length != strconv.Itoa(gz.Len()) || head.length != get.length {
		t.Fatalf("HEAD %s\n%s\nContent-Length %q\nGET %s\n%s\nContent-Length %q", head.status,
			strings.Join(head.fields, "\n"), head.length, get.status, strings.Join(get.fields, "\n"), get.length)
	}
}

// TestHeadKeepAlive: an encoded HEAD without Content-Length leaves the
// connection usable: a GET pipelined after it gets its encoded body.
func TestHeadKeepAlive(t *testing.T) {
	body := jsonBody(8000)
	srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Handler: New(Config{})(func(c *brisk.Ctx) {
			c.Response.Header.Set("Content-Type", "application/json")
			c.Response.SetBody(body)
		})}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	nc, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	const req = " / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
	go io.WriteString(nc, "HEAD"+req+"GET"+req)
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, &http.Request{Method: "HEAD"})
	if err != nil || resp.Header.Get("Content-Encoding") != Gzip || resp.Header.Get("Content-Length") != "" || resp.Close {
		t.Fatalf("HEAD: %v, %v", resp, err)
	}
	resp, err = http.ReadResponse(br, nil)
	if err != nil || resp.Header.Get("Content-Encoding") != Gzip {
		t.Fatalf("GET after HEAD: %v, %v", resp, err)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil || !bytes.Equal(decodeBody(t, Gzip, got), body) {
		t.Fatalf("GET after HEAD: %d bytes, %v", len(got), err)
	}
}

// TestHeadIncompressible pins the one documented difference: a HEAD does
// not compress, so for a body of a compressible type that does not
// shrink it names the coding while the GET goes out as is.
func TestHeadIncompressible(t *testing.T) {
	body := randomBytes(4096)
	do := serve(t, Config{}, func(c *brisk.Ctx) {
		c.Response.Header.Set("Content-Type", "text/plain")
		c.Response.SetBody(body)
	})
	get, _ := do("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n")
	head, _ := do("HEAD / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n")
	if get.Header.Get("Content-Encoding") != "" || get.ContentLength != int64(len(body)) ||
		head.Header.Get("Content-Encoding") != Gzip || head.Header.Get("Content-Length") != "" ||
		get.Header.Get("Vary") != "Accept-Encoding" || head.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("GET %v\nHEAD %v", get.Header, head.Header)
	}
}
