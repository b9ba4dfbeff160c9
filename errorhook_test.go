package brisk

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/brisk-http/brisk/wire"
)

// hookBody is what testHook writes: the status, the error's kind or
// message, and the request's method and path (empty for a head that did
// not parse).
func hookBody(code int, err error, c *Ctx) string {
	why := err.Error()
	if k := wire.KindOf(err); k != 0 {
		why = "kind " + strconv.Itoa(int(k))
	}
	return fmt.Sprintf(`{"status":%d,"error":%q,"method":%q,"path":%q}`, code, why, c.Request.Method(), c.Request.Path())
}

// testHook is an ErrorHandler that answers JSON built by hookBody, with
// a status it tries (and fails) to change to 200.
func testHook(c *Ctx, code int, err error) {
	c.Response.SetStatusCode(200)
	c.Response.Header.Set("Content-Type", "application/json")
	c.Response.WriteString(hookBody(code, err, c))
}

// TestErrorHandlerStatuses: every response the server generates itself
// goes through Server.ErrorHandler, with its status kept, the framing
// and the connection's close unchanged, no request fields for a head
// that did not parse, and no body (but its Content-Length) for HEAD.
func TestErrorHandlerStatuses(t *testing.T) {
	const long = "/" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	cases := []struct {
		name, req  string
		status     int
		why        string // in the hook's body
		method     string // the method the hook saw
		path       string
		keepsAlive bool
	}{
		{"bad_method", "G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "kind ", "", "", false},
		{"bad_target_head", "HEAD /a\x01 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "kind ", "HEAD", "", false},
		{"line_too_long", "GET " + long + " HTTP/1.1\r\nHost: x\r\n\r\n", 414, "kind ", "", "", false},
		{"fields_too_large", "GET /f HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("v", 300) + "\r\n\r\n", 431, "kind ", "", "", false},
		{"transfer_coding", "POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "kind ", "", "", false},
		{"version_2", "GET /v HTTP/2.0\r\nHost: x\r\n\r\n", 505, "kind ", "", "", false},
		{"bad_path", "GET /a\\b HTTP/1.1\r\nHost: x\r\n\r\n", 400, ErrPathByte.Error(), "GET", "", false},
		{"bad_path_head", "HEAD /a\\b HTTP/1.1\r\nHost: x\r\n\r\n", 400, ErrPathByte.Error(), "HEAD", "", false},
		{"length_too_large", "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n", 413, "kind ", "POST", "/up", false},
		{"chunked_too_large", "POST /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n" + strings.Repeat("b", 80) + "\r\n0\r\n\r\n", 413, "kind ", "POST", "/read", false},
		{"bad_chunk", "POST /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "kind ", "POST", "/read", false},
		{"panic", "GET /panic HTTP/1.1\r\nHost: x\r\n\r\n", 500, ErrHandlerPanic.Error(), "GET", "/panic", false},
		{"panic_head", "HEAD /panic HTTP/1.1\r\nHost: x\r\n\r\n", 500, ErrHandlerPanic.Error(), "HEAD", "/panic", false},
		{"ctx_error", "GET /proxy HTTP/1.1\r\nHost: x\r\n\r\n", 502, "upstream refused", "GET", "/proxy", true},
		{"ctx_error_nil", "GET /gone HTTP/1.1\r\nHost: x\r\n\r\n", 410, "brisk: Gone", "GET", "/gone", true},
	}
	handler := func(c *Ctx) {
		switch string(c.Request.Path()) {
		case "/read":
			c.Request.Body()
			c.Response.SetBodyString("ignored the error")
		case "/panic":
			c.Response.SetBodyString("partial")
			panic("boom")
		case "/proxy":
			c.Response.SetBodyString("replaced")
			c.Error(502, errors.New("upstream refused"))
		case "/gone":
			c.Error(410, nil)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, "inmemory", &Server{
				MaxRequestLineBytes: 64, MaxHeaderBytes: 256, MaxBodyBytes: 64,
				Handler: handler, ErrorHandler: testHook,
			})
			c := ts.connect()
			resp, body := c.roundTrip(tc.req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d (body %q)", resp.StatusCode, tc.status, body)
			}
			head := strings.HasPrefix(tc.req, "HEAD ")
			if head {
				if body != "" || resp.ContentLength <= 0 {
					t.Errorf("HEAD: body %q, Content-Length %d; want none and the body's length", body, resp.ContentLength)
				}
				return
			}
			if got := resp.Header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type %q", got)
			}
			prefix := fmt.Sprintf(`{"status":%d,"error":"%s`, tc.status, tc.why)
			tail := fmt.Sprintf(`,"method":%q,"path":%q}`, tc.method, tc.path)
			if !strings.HasPrefix(body, prefix) || !strings.HasSuffix(body, tail) {
				t.Errorf("body %q, want %s...%s", body, prefix, tail)
			}
			if tc.keepsAlive {
				c.expectOpen()
			} else {
				c.expectClosed()
			}
		})
	}
}

// TestErrorHandlerHeadLength: the Content-Length of a HEAD error answer
// is that of the body the hook built, which is not sent.
func TestErrorHandlerHeadLength(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{ErrorHandler: func(c *Ctx, code int, err error) {
		c.Response.SetBodyString("0123456789")
	}})
	c := ts.connect()
	resp, body := c.roundTrip("HEAD /nohandler HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.StatusCode != 404 || resp.ContentLength != 10 || body != "" {
		t.Fatalf("%d, Content-Length %d, body %q; want 404, 10, none", resp.StatusCode, resp.ContentLength, body)
	}
	c.expectOpen()
}

// TestErrorHandlerKeepsOwnAnswer: a Handler that answers a failed body
// read with the error's own status keeps its response (a JSON 413 for a
// chunked body too large); one that answers anything else is replaced.
func TestErrorHandlerKeepsOwnAnswer(t *testing.T) {
	for _, own := range []int{413, 400, 0} {
		t.Run(strconv.Itoa(own), func(t *testing.T) {
			ts := startServer(t, "inmemory", &Server{MaxBodyBytes: 16, Handler: func(c *Ctx) {
				if _, err := c.Request.Body(); errors.Is(err, ErrBodyTooLarge) && own != 0 {
					c.Response.SetStatusCode(own)
					c.Response.Header.Set("Content-Type", "application/json")
					c.Response.SetBodyString(`{"error":"too large"}`)
				}
			}})
			c := ts.connect()
			resp, body := c.roundTrip("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n" + strings.Repeat("b", 32) + "\r\n0\r\n\r\n")
			want := "Content Too Large\n"
			if own == 413 {
				want = `{"error":"too large"}`
			}
			if resp.StatusCode != 413 || body != want {
				t.Fatalf("%d %q, want 413 %q", resp.StatusCode, body, want)
			}
			c.expectClosed()
		})
	}
}

// TestErrorHandlerDefault: without an ErrorHandler, the bodies are the
// short plain-text ones, also for Ctx.Error.
func TestErrorHandlerDefault(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) { c.Error(503, errors.New("x")) }})
	c := ts.connect()
	resp, body := c.roundTrip(get("/"))
	if resp.StatusCode != 503 || body != "Service Unavailable\n" || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("%d %q %q", resp.StatusCode, body, resp.Header.Get("Content-Type"))
	}
}

// TestErrorHandlerMaxConns: the 503 to a connection beyond MaxConns goes
// through the hook with ErrMaxConns and no request.
func TestErrorHandlerMaxConns(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{MaxConns: 1, Handler: echoPath, ErrorHandler: testHook})
	first := ts.connect()
	first.roundTrip(get("/first")) // the first connection is served and stays
	second := ts.connect()
	resp, body := second.read("GET")
	want := `{"status":503,"error":"brisk: too many connections","method":"","path":""}`
	if resp.StatusCode != 503 || body != want {
		t.Fatalf("%d %q, want 503 %q", resp.StatusCode, body, want)
	}
}

// TestErrorHandlerMisbehaving: a hook that panics gives the default body
// (and is logged); one that streams has its response taken back; one
// that sets an invalid field gets the default 500.
func TestErrorHandlerMisbehaving(t *testing.T) {
	cases := []struct {
		name   string
		hook   ErrorHandler
		status int
		body   string
		log    string
	}{
		{"panics", func(c *Ctx, code int, err error) {
			c.Response.SetBodyString("half")
			panic("hook boom")
		}, 404, "Not Found\n", "brisk: ErrorHandler panic"},
		{"streams", func(c *Ctx, code int, err error) {
			c.BodyWriter().WriteString("streamed")
			c.Response.SetBodyString("buffered")
		}, 404, "buffered", ""},
		{"invalid_field", func(c *Ctx, code int, err error) {
			c.Response.Header.Set("X-Bad", "a\r\nb")
		}, 500, "Internal Server Error\n", "invalid response replaced by 500"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncbuf.Buffer
			ts := startServer(t, "inmemory", &Server{ErrorHandler: tc.hook, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			c := ts.connect()
			resp, body := c.roundTrip(get("/x"))
			if resp.StatusCode != tc.status || body != tc.body {
				t.Fatalf("%d %q, want %d %q", resp.StatusCode, body, tc.status, tc.body)
			}
			if !strings.Contains(logs.String(), tc.log) {
				t.Errorf("log lacks %q: %s", tc.log, logs.String())
			}
		})
	}
}

// TestErrorHandlerAfterStart: Ctx.Error after part of a streamed response
// left cuts it short (no last-chunk) and closes the connection: the hook
// is not called.
func TestErrorHandlerAfterStart(t *testing.T) {
	called := make(chan int, 1)
	ts := startServer(t, "inmemory", &Server{
		ErrorHandler: func(c *Ctx, code int, err error) { called <- code },
		Handler: func(c *Ctx) {
			w := c.BodyWriter()
			w.WriteString("part")
			w.Flush()
			c.Error(504, errors.New("upstream timed out"))
		},
	})
	c := ts.connect()
	c.send(get("/"))
	c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	got, _ := io.ReadAll(c.br)
	if !strings.HasSuffix(string(got), "4\r\npart\r\n") {
		t.Errorf("read %q, want a chunked body cut after its first chunk", got)
	}
	select {
	case code := <-called:
		t.Errorf("hook called with %d", code)
	default:
	}
}

// TestErrorHandlerNoRecursion: Ctx.Error inside the ErrorHandler (here
// through DecodeJSON, whose 415 it causes) gives the default body
// instead of calling the hook again; the status stays the first one's.
func TestErrorHandlerNoRecursion(t *testing.T) {
	calls := 0
	ts := startServer(t, "inmemory", &Server{ErrorHandler: func(c *Ctx, code int, err error) {
		calls++
		var v any
		c.DecodeJSON(&v, 0)
	}})
	c := ts.connect()
	resp, body := c.roundTrip(get("/"))
	if resp.StatusCode != 404 || body != "Unsupported Media Type\n" || calls != 1 {
		t.Fatalf("%d %q after %d calls", resp.StatusCode, body, calls)
	}
}
