package brisk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// scriptConn is a connection whose reads return in, then io.EOF, and
// whose writes are recorded; with failAt >= 0 it accepts that many bytes
// in all and then fails with errScriptBroken.
type scriptConn struct {
	in     []byte
	failAt int

	mu      sync.Mutex
	writes  []int  // the length accepted by each Write
	out     []byte // the bytes accepted
	closed  chan struct{}
	closeMu sync.Once
}

var errScriptBroken = errors.New("script: broken pipe")

func newScriptConn(in string, failAt int) *scriptConn {
	return &scriptConn{in: []byte(in), failAt: failAt, closed: make(chan struct{})}
}

func (c *scriptConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.in) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.in)
	c.in = c.in[n:]
	return n, nil
}

func (c *scriptConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := len(p), error(nil)
	if c.failAt >= 0 && len(c.out)+n > c.failAt {
		n, err = c.failAt-len(c.out), errScriptBroken
	}
	c.writes = append(c.writes, n)
	c.out = append(c.out, p[:n]...)
	return n, err
}

// written returns the number of bytes accepted so far.
func (c *scriptConn) written() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.out)
}

func (c *scriptConn) Close() error {
	c.closeMu.Do(func() { close(c.closed) })
	return nil
}

func (c *scriptConn) LocalAddr() net.Addr              { return fakenet.Addr{} }
func (c *scriptConn) RemoteAddr() net.Addr             { return fakenet.Addr{} }
func (c *scriptConn) SetDeadline(time.Time) error      { return nil }
func (c *scriptConn) SetReadDeadline(time.Time) error  { return nil }
func (c *scriptConn) SetWriteDeadline(time.Time) error { return nil }

// doneCall is one OnRequestDone call as a test sees it.
type doneCall struct {
	info    RequestInfo
	written int    // what the connection had accepted at the call
	state   string // the last state reported before the call
}

// serveScript serves one scriptConn with s and both hooks recording,
// until the connection is closed, and returns the calls and the states.
func serveScript(t *testing.T, nc *scriptConn, s *Server) ([]doneCall, []string) {
	t.Helper()
	var mu sync.Mutex
	var calls []doneCall
	var states []string
	s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s.ConnState = func(_ net.Conn, st ConnState) {
		mu.Lock()
		states = append(states, st.String())
		mu.Unlock()
	}
	s.OnRequestDone = func(in *RequestInfo) {
		mu.Lock()
		defer mu.Unlock()
		cp := *in
		cp.Method, cp.Target = bytes.Clone(in.Method), bytes.Clone(in.Target)
		calls = append(calls, doneCall{cp, nc.written(), states[len(states)-1]})
	}
	ln := fakenet.NewListener()
	go s.Serve(ln)
	ln.Push(nc)
	select {
	case <-nc.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("connection not closed")
	}
	s.Shutdown(context.Background()) // returns after StateClosed
	mu.Lock()
	defer mu.Unlock()
	return calls, states
}

// sizedBody answers 200 with a body as long as the path's last segment
// says ("/n/300": 300 bytes), and records the path as the route.
func sizedBody(c *Ctx) {
	c.SetRoute(string(c.Request.Path()))
	n := 0
	for _, b := range c.Request.Path()[3:] {
		n = n*10 + int(b-'0')
	}
	c.Request.Body()
	c.Response.SetBodyString(strings.Repeat("x", n))
}

// pipelinedScript is four requests sent at once, with bodies and
// responses of different sizes.
var pipelinedScript = []string{
	get("/n/10"),
	"POST /n/300 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
	"HEAD /n/7 HTTP/1.1\r\nHost: x\r\n\r\n",
	"PUT /n/0 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
}

// splitResponses splits out into the responses to the requests reqs,
// returning each one's length on the wire.
func splitResponses(t *testing.T, out []byte, reqs []string) []int {
	t.Helper()
	counted := &countingReader{r: bytes.NewReader(out)}
	br := bufio.NewReader(counted)
	var lens []int
	prev := 0
	for _, raw := range reqs {
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		at := counted.n - br.Buffered()
		lens = append(lens, at-prev)
		prev = at
	}
	if prev != len(out) {
		t.Fatalf("%d bytes after the responses", len(out)-prev)
	}
	return lens
}

// TestHooksPipelinedCompletions: four pipelined requests read in one
// read are answered in one write, and then each gets its own completion,
// in order, with its exact bytes read and written, after the bytes were
// handed to the connection; they share one start and one end.
func TestHooksPipelinedCompletions(t *testing.T) {
	nc := newScriptConn(strings.Join(pipelinedScript, ""), -1)
	calls, states := serveScript(t, nc, &Server{Handler: sizedBody})
	if len(nc.writes) != 1 {
		t.Fatalf("%d writes %v, want the four responses in one", len(nc.writes), nc.writes)
	}
	if got, want := strings.Join(states, " "), "new active idle closed"; got != want {
		t.Fatalf("states %q, want %q", got, want)
	}
	lens := splitResponses(t, nc.out, pipelinedScript)
	if len(calls) != len(pipelinedScript) {
		t.Fatalf("%d completions, want %d", len(calls), len(pipelinedScript))
	}
	for i, call := range calls {
		in := call.info
		fields := strings.Fields(pipelinedScript[i])
		if string(in.Method) != fields[0] || in.Route != fields[1] || in.Status != 200 || in.Err != nil {
			t.Errorf("completion %d: %s %q %d %v, want %s %s 200 <nil>", i, in.Method, in.Route, in.Status, in.Err, fields[0], fields[1])
		}
		if in.BytesRead != int64(len(pipelinedScript[i])) || in.BytesWritten != int64(lens[i]) {
			t.Errorf("completion %d: read %d written %d, want %d and %d", i, in.BytesRead, in.BytesWritten, len(pipelinedScript[i]), lens[i])
		}
		if call.written != len(nc.out) || call.state != "active" {
			t.Errorf("completion %d: called with %d bytes written, after %q; want %d, after active", i, call.written, call.state, len(nc.out))
		}
		if in.Duration != calls[0].info.Duration || in.Duration < 0 || in.Duration > 5*time.Second {
			t.Errorf("completion %d: duration %v, want %v as the first (one read, one write)", i, in.Duration, calls[0].info.Duration)
		}
	}
}

// TestHooksPipelinedCutShort: when the one write of four pipelined
// responses fails inside the second, the first is reported whole, the
// second with the bytes the connection took and the write error, the
// others with none, in order, before StateClosed.
func TestHooksPipelinedCutShort(t *testing.T) {
	whole := newScriptConn(strings.Join(pipelinedScript, ""), -1)
	serveScript(t, whole, &Server{Handler: sizedBody})
	lens := splitResponses(t, whole.out, pipelinedScript)
	failAt := lens[0] + 20
	nc := newScriptConn(strings.Join(pipelinedScript, ""), failAt)
	calls, states := serveScript(t, nc, &Server{Handler: sizedBody})
	if got, want := strings.Join(states, " "), "new active closed"; got != want {
		t.Fatalf("states %q, want %q", got, want)
	}
	want := []struct {
		written int64
		err     error
	}{{int64(lens[0]), nil}, {20, errScriptBroken}, {0, errScriptBroken}, {0, errScriptBroken}}
	if len(calls) != len(want) {
		t.Fatalf("%d completions, want %d", len(calls), len(want))
	}
	for i, call := range calls {
		in := call.info
		if in.Route != strings.Fields(pipelinedScript[i])[1] || in.BytesWritten != want[i].written || !errors.Is(in.Err, want[i].err) {
			t.Errorf("completion %d: %q written %d err %v, want written %d err %v", i, in.Route, in.BytesWritten, in.Err, want[i].written, want[i].err)
		}
		if call.written != failAt {
			t.Errorf("completion %d: called with %d bytes written, want %d", i, call.written, failAt)
		}
	}
}

// TestHooksPipelinedQueueFull: with a write buffer large enough to batch
// 40 pipelined responses, the 33rd finds the completion queue full
// (maxPending): the first 32 leave in one write, the rest in another,
// and all 40 are reported in order with their exact bytes written.
func TestHooksPipelinedQueueFull(t *testing.T) {
	var reqs []string
	for i := range 40 {
		reqs = append(reqs, get("/n/"+strconv.Itoa(i)))
	}
	nc := newScriptConn(strings.Join(reqs, ""), -1)
	calls, _ := serveScript(t, nc, &Server{Handler: sizedBody, WriteBufferSize: 64 << 10})
	lens := splitResponses(t, nc.out, reqs)
	sum := func(l []int) (n int) {
		for _, x := range l {
			n += x
		}
		return n
	}
	if want := []int{sum(lens[:maxPending]), sum(lens[maxPending:])}; !slices.Equal(nc.writes, want) {
		t.Fatalf("writes %v, want %v", nc.writes, want)
	}
	if len(calls) != len(reqs) {
		t.Fatalf("%d completions, want %d", len(calls), len(reqs))
	}
	for i, call := range calls {
		wantWritten := nc.writes[0]
		if i >= maxPending {
			wantWritten = len(nc.out)
		}
		if call.info.Route != "/n/"+strconv.Itoa(i) || call.info.BytesWritten != int64(lens[i]) || call.written != wantWritten {
			t.Errorf("completion %d: %q written %d, called at %d; want /n/%d, %d, at %d",
				i, call.info.Route, call.info.BytesWritten, call.written, i, lens[i], wantWritten)
		}
	}
}
