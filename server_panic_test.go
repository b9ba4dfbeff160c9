package brisk

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/stack"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// TestResponseCutShort: a streamed response whose handler panics after
// bytes of it left the server, or returns short of its Content-Length,
// ends without a last-chunk or padding and the connection closes, so the
// client sees an incomplete message (RFC 9112 §8). A panic before any
// byte left is still answered 500.
func TestResponseCutShort(t *testing.T) {
	const chunkedHead = "HTTP/1.1 200 OK\r\nDate: D\r\nTransfer-Encoding: chunked\r\n\r\n"
	const lengthHead = "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 10\r\n\r\n"
	cases := []struct {
		name   string
		length bool // declare Content-Length: 10
		flush  bool // flush "hello" before the end
		panics bool
		want   string
	}{
		{"chunked_panic_after_flush", false, true, true, chunkedHead + "5\r\nhello\r\n"},
		{"length_panic_after_flush", true, true, true, lengthHead + "hello"},
		{"length_short_return", true, true, false, lengthHead + "hello"},
		{"length_short_return_unflushed", true, false, false, lengthHead + "hello"},
		{"chunked_panic_before_flush", false, false, true,
			"HTTP/1.1 500 Internal Server Error\r\nDate: D\r\nContent-Type: text/plain; charset=utf-8\r\n" +
				"Content-Length: 22\r\nConnection: close\r\n\r\nInternal Server Error\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forTransports(t, func(t *testing.T, tr string) {
				ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
					if tc.length {
						c.Response.Header.Set("Content-Length", "10")
					}
					w := c.BodyWriter()
					w.WriteString("hello")
					if tc.flush {
						w.Flush()
					}
					if tc.panics {
						panic("boom")
					}
				}})
				c := ts.connect()
				c.sendSync(get("/"))
				if got := c.readUntilClose(); got != tc.want {
					t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
				}
			})
		})
	}
}

// TestResponseCutShortCloseDelimited: a close-delimited body (HTTP/1.0,
// no Content-Length) cut by a panic ends in a reset, not in the FIN that
// would mark its normal end.
func TestResponseCutShortCloseDelimited(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: func(c *Ctx) {
		w := c.BodyWriter()
		w.WriteString("hello")
		w.Flush()
		panic("boom")
	}})
	c := ts.connect()
	c.sendSync("GET / HTTP/1.0\r\n\r\n")
	c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	got, err := io.ReadAll(c.br)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("read %q, err %v; want a connection reset", got, err)
	}
	if !strings.HasPrefix(noDate(string(got)), "HTTP/1.1 200 OK\r\nDate: D\r\nConnection: close\r\n\r\n") {
		t.Errorf("read %q before the reset", got)
	}
}

// TestPanicLogged: a handler panic is logged with the request's method and
// target and a stack trace starting at the panicking function, one
// attribute per frame (a JSON object, not one string of escaped
// newlines), bounded by stack.MaxFrames however deep the stack.
func TestPanicLogged(t *testing.T) {
	var logs syncbuf.Buffer
	ts := startServer(t, "inmemory", &Server{
		Logger:  slog.New(slog.NewJSONHandler(&logs, nil)),
		Handler: func(c *Ctx) { deepPanic(500) },
	})
	c := ts.connect()
	if resp, _ := c.roundTrip(get("/p?q=1")); resp.StatusCode != 500 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var rec struct {
		Msg, Panic, Method, Target string
		Stack                      map[string]string
	}
	if err := json.Unmarshal([]byte(logs.String()), &rec); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	if rec.Msg != "brisk: handler panic" || rec.Panic != "deep" || rec.Method != "GET" || rec.Target != "/p?q=1" {
		t.Errorf("log record %+v", rec)
	}
	if n := len(rec.Stack); n == 0 || n > stack.MaxFrames {
		t.Fatalf("%d stack frames, want 1..%d", n, stack.MaxFrames)
	}
	if f := rec.Stack["0"]; !strings.HasPrefix(f, "github.com/brisk-http/brisk.deepPanic ") || strings.Contains(f, "\n") {
		t.Errorf("innermost frame %q, want brisk.deepPanic", f)
	}
}

func deepPanic(n int) {
	if n == 0 {
		panic("deep")
	}
	deepPanic(n - 1)
}

func TestLogSafe(t *testing.T) {
	cases := []struct{ in, want string }{
		{"GET", "GET"},
		{"/a?b=c%20d", "/a?b=c%20d"},
		{"/a\r\nX: y", `/a\x0d\x0aX:\x20y`},
		{"\x1b[31m", `\x1b[31m`},
		{"a\\b", `a\x5cb`},
		{"\xff\x80", `\xff\x80`},
		{"", ""},
	}
	for _, tc := range cases {
		if got := logSafe([]byte(tc.in)); got != tc.want {
			t.Errorf("logSafe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
