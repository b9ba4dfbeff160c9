package brisk

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// TestFromHTTPPanicDifferential compares, with net/http's server, what a
// client receives from a handler that panics (with a value, or with
// http.ErrAbortHandler): nothing but the responses to earlier pipelined
// requests when the response head was not sent, the head and the body so
// far otherwise, cut short (no last-chunk, no padding), then the close.
func TestFromHTTPPanicDifferential(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p any = "boom"
		if r.URL.Query().Has("abort") {
			p = http.ErrAbortHandler
		}
		switch r.URL.Path {
		case "/hello":
			io.WriteString(w, "hello")
			return
		case "/first":
		case "/buffered":
			io.WriteString(w, "hello")
		case "/header":
			w.Header().Set("X-A", "1")
			w.WriteHeader(202)
		case "/bad-code":
			w.WriteHeader(99) // net/http panics
		case "/flushed":
			io.WriteString(w, "hello")
			w.(http.Flusher).Flush()
		case "/length-flushed":
			w.Header().Set("Content-Length", "10")
			io.WriteString(w, "hello")
			w.(http.Flusher).Flush()
		case "/past-buffer":
			io.WriteString(w, strings.Repeat("x", 3000)) // the head is sent, not flushed
		}
		panic(p)
	})
	netHTTP, brisk := diffServers(t, h, nil)
	var paths []string
	for _, p := range []string{"/first", "/buffered", "/header", "/bad-code", "/flushed", "/length-flushed", "/past-buffer"} {
		paths = append(paths, p, p+"?abort")
	}
	for _, path := range paths {
		for _, pipelined := range []bool{false, true} {
			name := strings.ReplaceAll(strings.TrimPrefix(path, "/"), "?", "_")
			raw := get(path)
			if pipelined {
				name += "_pipelined"
				raw = get("/hello") + raw + get("/hello")
			}
			t.Run(name, func(t *testing.T) {
				want := rawUntilClose(t, netHTTP, raw)
				if got := rawUntilClose(t, brisk, raw); got != want {
					t.Errorf("brisk:\n%q\nnet/http:\n%q", got, want)
				}
			})
		}
	}
}

// TestFromHTTPPanicLogged checks that a handler panic is logged, with
// its value and stack, and that http.ErrAbortHandler is not, as
// net/http does.
func TestFromHTTPPanicLogged(t *testing.T) {
	var logs syncbuf.Buffer
	ts := startServer(t, "tcp", &Server{
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/abort" {
				panic(http.ErrAbortHandler)
			}
			panic("boom")
		})),
	})
	c := ts.connect()
	c.send(get("/abort"))
	c.expectClosed()
	if logs.String() != "" {
		t.Errorf("http.ErrAbortHandler logged: %s", logs.String())
	}
	c = ts.connect()
	c.send(get("/panic"))
	c.expectClosed()
	for _, want := range []string{"handler panic", "panic=boom", "target=/panic", "stack.0=\"github.com/brisk-http/brisk.TestFromHTTPPanicLogged"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q: %s", want, logs.String())
		}
	}
}

// TestFromHTTPPanicCloseDelimited checks that a close-delimited body
// (HTTP/1.0) cut short by a panic ends with a reset, as on brisk's own
// handlers, not with the FIN that marks its end.
func TestFromHTTPPanicCloseDelimited(t *testing.T) {
	ts := startServer(t, "tcp", &Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello")
		w.(http.Flusher).Flush()
		panic("boom")
	}))})
	c := ts.connect()
	c.sendSync("GET / HTTP/1.0\r\n\r\n")
	got, err := io.ReadAll(c.br)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("read %q, err %v; want a connection reset", got, err)
	}
	if !strings.HasSuffix(string(got), "\r\n\r\nhello") {
		t.Errorf("read %q before the reset", got)
	}
}
