package brisk

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// hookRecorder records what the hooks report.
type hookRecorder struct {
	mu     sync.Mutex
	states []string
	reqs   []RequestInfo
	closed chan struct{}
}

func newHookRecorder() *hookRecorder { return &hookRecorder{closed: make(chan struct{}, 1)} }

func (r *hookRecorder) install(s *Server) *Server {
	s.ConnState = func(_ net.Conn, st ConnState) {
		r.mu.Lock()
		r.states = append(r.states, st.String())
		r.mu.Unlock()
		if st == StateClosed {
			r.closed <- struct{}{}
		}
	}
	s.OnRequestDone = func(in *RequestInfo) {
		r.mu.Lock()
		cp := *in
		cp.Method = append([]byte(nil), in.Method...)
		cp.Target = append([]byte(nil), in.Target...)
		r.reqs = append(r.reqs, cp)
		r.mu.Unlock()
	}
	return s
}

// waitState waits until the last state reported is want.
func (r *hookRecorder) waitState(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		r.mu.Lock()
		last := ""
		if n := len(r.states); n > 0 {
			last = r.states[n-1]
		}
		r.mu.Unlock()
		if last == want {
			return
		}
	}
	t.Fatalf("state %q not reported", want)
}

func (r *hookRecorder) waitClosed(t *testing.T) {
	t.Helper()
	select {
	case <-r.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("no StateClosed")
	}
}

func TestHooksKeepAlive(t *testing.T) {
	forTransports(t, func(t *testing.T, transport string) {
		rec := newHookRecorder()
		ts := startServer(t, transport, rec.install(&Server{Handler: func(c *Ctx) {
			if c.Request.Path()[1] == 'r' {
				c.SetRoute("/r/{id}")
			}
			c.Request.Body()
			helloHandler(c)
		}}))
		c := ts.connect()
		counted := &countingReader{r: c.nc}
		c.br = bufio.NewReader(counted)
		reqs := []string{
			get("/a"),
			"POST /r/7 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: v\r\n\r\n",
			"PUT /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
		}
		var lens []int
		for _, raw := range reqs {
			before := counted.n - c.br.Buffered()
			c.sendSync(raw)
			c.read(strings.Fields(raw)[0])
			lens = append(lens, counted.n-c.br.Buffered()-before)
		}
		c.nc.Close()
		rec.waitClosed(t)
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if got, want := strings.Join(rec.states, " "), "new active idle active idle active idle closed"; got != want {
			t.Fatalf("states %q, want %q", got, want)
		}
		if len(rec.reqs) != 3 {
			t.Fatalf("%d requests reported, want 3", len(rec.reqs))
		}
		for i, in := range rec.reqs {
			method := strings.Fields(reqs[i])[0]
			route := map[int]string{1: "/r/{id}"}[i]
			if string(in.Method) != method || in.Route != route || in.Status != 200 || in.Err != nil {
				t.Errorf("request %d: %+v", i, in)
			}
			if in.BytesRead != int64(len(reqs[i])) || in.BytesWritten != int64(lens[i]) {
				t.Errorf("request %d: read %d written %d, want %d and %d", i, in.BytesRead, in.BytesWritten, len(reqs[i]), lens[i])
			}
			if in.Duration <= 0 || in.Duration > 5*time.Second {
				t.Errorf("request %d: duration %v", i, in.Duration)
			}
		}
	})
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestHooksPipelinedAndRejected(t *testing.T) {
	rec := newHookRecorder()
	ts := startServer(t, "tcp", rec.install(&Server{Handler: helloHandler, MaxBodyBytes: 2}))
	c := ts.connect()
	two := get("/1") + get("/2")
	big := "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n"
	c.sendSync(two + big)
	c.read("GET")
	c.read("GET")
	resp, _ := c.read("POST")
	if resp.StatusCode != 413 {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	c.expectClosed()
	rec.waitClosed(t)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if got, want := strings.Join(rec.states, " "), "new active closed"; got != want {
		t.Fatalf("states %q, want %q", got, want)
	}
	var statuses []int
	var read int64
	for _, in := range rec.reqs {
		statuses = append(statuses, in.Status)
		read += in.BytesRead
	}
	if len(statuses) != 3 || statuses[0] != 200 || statuses[1] != 200 || statuses[2] != 413 {
		t.Fatalf("statuses %v, want [200 200 413]", statuses)
	}
	if want := int64(len(two) + len(big)); read != want {
		t.Fatalf("bytes read %d, want %d", read, want)
	}
}

func TestConnStateMaxConns(t *testing.T) {
	rec := newHookRecorder()
	ts := startServer(t, "tcp", rec.install(&Server{Handler: helloHandler, MaxConns: 1}))
	first := ts.connect()
	first.roundTrip(get("/"))
	rec.waitState(t, "idle") // reported once the response is out
	second := ts.connect()
	if resp, _ := second.read("GET"); resp.StatusCode != 503 {
		t.Fatalf("status %d, want 503", resp.StatusCode)
	}
	rec.waitClosed(t)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if got, want := strings.Join(rec.states, " "), "new active idle new closed"; got != want {
		t.Fatalf("states %q, want %q", got, want)
	}
}
