package middleware

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// TestRecovery: a panic is logged with the request, its ID and the stack
// as one attribute per frame starting at the panicking function, and
// answered 500 through the Server's ErrorHandler; over HTTP/1.1 and h2.
func TestRecovery(t *testing.T) {
	var logs *syncbuf.Buffer
	protocols(t, func() *brisk.Server {
		logs = new(syncbuf.Buffer)
		logger := slog.New(slog.NewJSONHandler(logs, nil))
		h := RequestID(RequestIDConfig{})(Recovery(logger)(func(c *brisk.Ctx) { panicky() }))
		return &brisk.Server{Handler: h, ErrorHandler: func(c *brisk.Ctx, code int, err error) {
			c.JSON(code, map[string]string{"error": err.Error()})
		}}
	}, func(t *testing.T, c *http.Client, base string) {
		resp, body := send(t, c, "GET", base+"/p%0a?x")
		if resp.StatusCode != 500 || body != `{"error":"middleware: handler panicked"}`+"\n" {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
		var rec struct {
			Msg, Panic, Method, Path string
			RequestID                string `json:"request_id"`
			Stack                    map[string]string
		}
		line, _, _ := strings.Cut(logs.String(), "\n")
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log %q: %v", logs.String(), err)
		}
		if rec.Msg != "middleware: handler panic" || rec.Panic != "kaboom" || rec.Method != "GET" ||
			rec.Path != "/p%0A" || rec.RequestID != resp.Header.Get("X-Request-ID") {
			t.Errorf("record %+v", rec)
		}
		if !strings.HasPrefix(rec.Stack["0"], "github.com/brisk-http/brisk/middleware.panicky ") || len(rec.Stack) < 3 {
			t.Errorf("stack %v, want it to start at panicky", rec.Stack)
		}
	})
}

func panicky() { panic("kaboom") }

// TestRecoveryAbort: http.ErrAbortHandler goes on to the server, which
// cuts the response short; nothing is logged by Recovery.
func TestRecoveryAbort(t *testing.T) {
	var logs syncbuf.Buffer
	done := make(chan bool, 1)
	h := Recovery(slog.New(slog.NewTextHandler(&logs, nil)))(func(c *brisk.Ctx) { panic(http.ErrAbortHandler) })
	func() {
		defer func() { done <- recover() == http.ErrAbortHandler }()
		h(new(brisk.Ctx))
	}()
	if !<-done || logs.String() != "" {
		t.Errorf("ErrAbortHandler not passed on, or logged: %q", logs.String())
	}
}
