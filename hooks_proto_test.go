package brisk

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHooksFromHTTPStatus: OnRequestDone reports the status a FromHTTP
// handler sent (it used to report 200 whatever the handler wrote), with
// the byte count of what was written.
func TestHooksFromHTTPStatus(t *testing.T) {
	rec := newHookRecorder()
	ts := startServer(t, "tcp", rec.install(&Server{Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
		case "/implicit":
			w.Write([]byte("ok"))
		default:
			w.WriteHeader(http.StatusTeapot)
		}
	}))}))
	c := ts.connect()
	counted := &countingReader{r: c.nc}
	for _, tc := range []struct {
		path   string
		status int
	}{{"/missing", 404}, {"/implicit", 200}, {"/teapot", 418}} {
		c.br.Reset(counted)
		before := counted.n
		c.sendSync(get(tc.path))
		if resp, _ := c.read("GET"); resp.StatusCode != tc.status {
			t.Fatalf("%s: %d, want %d", tc.path, resp.StatusCode, tc.status)
		}
		n := counted.n - before - c.br.Buffered()
		in := rec.wait(t, tc.path)
		if in.Status != tc.status || in.BytesWritten != int64(n) || in.Proto != "HTTP/1.1" {
			t.Errorf("%s: record %d %s, %d bytes; want %d HTTP/1.1, %d bytes", tc.path, in.Status, in.Proto, in.BytesWritten, tc.status, n)
		}
	}
}

// TestHooksUpgrade: a request whose connection was switched (Upgrade)
// is reported once, when its handler returns, with status 101 and the
// bytes of the 101 head.
func TestHooksUpgrade(t *testing.T) {
	rec := newHookRecorder()
	ts := startServer(t, "tcp", rec.install(&Server{Handler: func(c *Ctx) {
		nc, _, err := c.Upgrade("echo")
		if err != nil {
			c.Response.SetStatusCode(400)
			return
		}
		nc.Write([]byte("after"))
		nc.Close()
	}}))
	c := ts.connect()
	c.sendSync("GET /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
	resp, _ := c.read("GET")
	if resp.StatusCode != 101 {
		t.Fatalf("%d, want 101", resp.StatusCode)
	}
	in := rec.wait(t, "/up")
	if in.Status != 101 || in.BytesWritten <= int64(len("HTTP/1.1 101 Switching Protocols\r\n\r\n")) || in.Err != nil {
		t.Fatalf("record %+v, want 101 with its head's bytes", in)
	}
}

// TestHTTPHandlerProto: a request bridged from net/http's own HTTP/2
// server (HTTPHandler) has Proto "HTTP/2.0" in the Ctx and the record,
// as net/http reports it; one from HTTP/1.1 has "HTTP/1.1".
func TestHTTPHandlerProto(t *testing.T) {
	rec := newHookRecorder()
	s := rec.install(&Server{Handler: func(c *Ctx) { c.Response.WriteString(c.Proto() + " " + c.Request.Proto()) }})
	s.ConnState = nil // a bridged connection per request: more closes than the recorder holds
	hs := httptest.NewUnstartedServer(s.HTTPHandler())
	hs.EnableHTTP2 = true
	hs.StartTLS()
	defer hs.Close()
	for _, h2 := range []bool{true, false} {
		cl := hs.Client()
		if !h2 {
			cfg := cl.Transport.(*http.Transport).TLSClientConfig.Clone()
			cfg.NextProtos = []string{"http/1.1"}
			cl = &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
		}
		want := map[bool]string{true: "HTTP/2.0", false: "HTTP/1.1"}[h2]
		resp, err := cl.Get(hs.URL + "/" + strings.ToLower(want[5:6]))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		buf := make([]byte, 64)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		resp.Body.Close()
		if resp.Proto != want || b.String() != want+" "+want {
			t.Fatalf("%s %q, want %s and body %q", resp.Proto, b.String(), want, want+" "+want)
		}
		if in := rec.wait(t, "/"+want[5:6]); in.Proto != want {
			t.Fatalf("record Proto %q, want %q", in.Proto, want)
		}
	}
}

// wait returns the record of the request for target, waiting up to 5 s.
func (r *hookRecorder) wait(t *testing.T, target string) RequestInfo {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		r.mu.Lock()
		for _, in := range r.reqs {
			if string(in.Target) == target {
				r.mu.Unlock()
				return in
			}
		}
		r.mu.Unlock()
	}
	t.Fatalf("no record for %s", target)
	return RequestInfo{}
}
