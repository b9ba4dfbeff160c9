package brisk

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
)

// TestCloseCutsAndLogs: a download longer than Shutdown's deadline is cut
// by Close, which logs it with its method and target; OnRequestDone
// reports it with an error; an idle connection is closed without a log
// line.
func TestCloseCutsAndLogs(t *testing.T) {
	logs := &syncbuf.Buffer{}
	done := make(chan *RequestInfo, 4)
	s := &Server{Logger: slog.New(slog.NewTextHandler(logs, nil))}
	s.OnRequestDone = func(ri *RequestInfo) {
		c := *ri
		c.Target = []byte(string(ri.Target))
		done <- &c
	}
	s.Handler = func(c *Ctx) {
		if string(c.Request.Path()) != "/slow" {
			helloHandler(c)
			return
		}
		w := c.BodyWriter()
		for { // deaf to Ctx.Context, as a copy from a slow source is
			if _, err := io.WriteString(w, "tick\n"); err != nil {
				return
			}
			w.Flush()
			time.Sleep(10 * time.Millisecond)
		}
	}
	ts := startServer(t, "tcp", s)
	idle := ts.connect()
	idle.roundTrip(get("/"))
	<-done
	busy := ts.connect()
	busy.send(get("/slow?n=1"))
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %v, want the deadline", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case ri := <-done:
		if ri.Err == nil || string(ri.Target) != "/slow?n=1" {
			t.Fatalf("OnRequestDone: target %q err %v, want /slow?n=1 with an error", ri.Target, ri.Err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no OnRequestDone for the cut response")
	}
	if b, _ := io.ReadAll(busy.br); strings.HasSuffix(string(b), "0\r\n\r\n") {
		t.Fatal("the cut chunked body has its last chunk")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "response cut by Close") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	out := logs.String()
	if n := strings.Count(out, "response cut by Close"); n != 1 || !strings.Contains(out, "method=GET target=\"/slow?n=1\"") {
		t.Fatalf("%d cut lines, want 1 naming GET /slow?n=1:\n%s", n, out)
	}
	idle.expectClosed()
}
