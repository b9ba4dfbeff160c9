package brisk

import (
	"testing"
	"time"
)

func TestGet(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: echoPath, Name: "brisk"})
		c := ts.connect()
		resp, body := c.roundTrip(get("/hello?x=1"))
		if resp.StatusCode != 200 || body != "/hello" {
			t.Fatalf("got %d %q", resp.StatusCode, body)
		}
		if got := resp.Header.Get("Content-Length"); got != "6" {
			t.Errorf("Content-Length %q", got)
		}
		if got := resp.Header.Get("Server"); got != "brisk" {
			t.Errorf("Server %q", got)
		}
		if got := resp.Header.Get("Date"); len(got) != dateLen {
			t.Errorf("Date %q", got)
		}
		if resp.Close {
			t.Errorf("connection close on keep-alive request")
		}
		c.expectOpen()
	})
}

// TestCtxCoarseNow: the handler's coarse clock is within about a second
// of time.Now, never ahead of it.
func TestCtxCoarseNow(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		now := time.Now()
		if d := now.Sub(c.CoarseNow()); d < 0 || d > 2*time.Second {
			t.Errorf("CoarseNow is %v behind time.Now, want 0 to 1 s", d)
		}
	}})
	ts.connect().roundTrip(get("/"))
}
