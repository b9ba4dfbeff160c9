package brisk

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

// Tests of a buffered body written together with the head before it
// (sendBytes: conn.write of the write buffer and the body, resumed after
// a write that timed out), over connections that do not gather writes.
// The loopback TCP and TLS ones are in server_gather_tcp_test.go.

// gatherBody is a body that no shift or repetition of its bytes leaves
// unchanged, so that a byte written twice or skipped shows.
var gatherBody = func() []byte {
	b := make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}()

// gatherHandler answers "/big/N" with the first N bytes of gatherBody
// and "/s/N" with N bytes of a short pattern, set with SetBody (a
// buffered response), "/stream/N" with the first N bytes of gatherBody
// in one BodyWriter.Write (one chunk); the route is the path.
func gatherHandler(c *Ctx) {
	path := string(c.Request.Path())
	c.SetRoute(path)
	if n, ok := strings.CutPrefix(path, "/big/"); ok {
		c.Response.SetBody(gatherBody[:atoiOr(n, 0)])
		return
	}
	if n, ok := strings.CutPrefix(path, "/stream/"); ok {
		c.BodyWriter().Write(gatherBody[:atoiOr(n, 0)])
		return
	}
	n, _ := strings.CutPrefix(path, "/s/")
	c.Response.SetBody(bytes.Repeat([]byte("s"), atoiOr(n, 0)))
}

// gatherScript is 20 short responses, a large one and a short one,
// pipelined: with a 64 KiB write buffer the large body leaves in one
// write with the 20 responses and its head before it, and the short one
// after it in another.
var gatherScript = func() []string {
	var reqs []string
	for range 20 {
		reqs = append(reqs, get("/s/1000"))
	}
	return append(reqs, get("/big/200000"), get("/s/10"))
}()

// trickleConn is a scriptConn whose Write takes at most step bytes and,
// when that is not all, fails with a timeout, as a write to a slow
// client fails at its deadline having written a part.
type trickleConn struct {
	*scriptConn
	step int
}

func (c *trickleConn) Write(p []byte) (int, error) {
	if len(p) <= c.step {
		return c.scriptConn.Write(p)
	}
	n, err := c.scriptConn.Write(p[:c.step])
	if err == nil {
		err = os.ErrDeadlineExceeded
	}
	return n, err
}

// timeoutConn is a scriptConn whose write past failAt fails with a
// timeout, as a write to a client that stopped reading fails at its
// deadline.
type timeoutConn struct{ *scriptConn }

func (c timeoutConn) Write(p []byte) (int, error) {
	n, err := c.scriptConn.Write(p)
	if err == errScriptBroken {
		err = os.ErrDeadlineExceeded
	}
	return n, err
}

// serveFake serves nc (sc, or a wrapper of it) with s until the
// connection is closed, and returns the OnRequestDone calls, copied.
func serveFake(t *testing.T, nc net.Conn, sc *scriptConn, s *Server) []RequestInfo {
	t.Helper()
	var mu sync.Mutex
	var calls []RequestInfo
	s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s.OnRequestDone = func(in *RequestInfo) {
		mu.Lock()
		defer mu.Unlock()
		cp := *in
		cp.Method = bytes.Clone(in.Method)
		calls = append(calls, cp)
	}
	ln := fakenet.NewListener()
	go s.Serve(ln)
	ln.Push(nc)
	select {
	case <-sc.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("connection not closed")
	}
	s.Shutdown(context.Background()) // returns after the connection's last hook
	mu.Lock()
	defer mu.Unlock()
	return calls
}

// sameOutput reports whether two runs wrote the same bytes, but for the
// values of their Date fields (which keep their length).
func sameOutput(a, b []byte) bool { return noDate(string(a)) == noDate(string(b)) }

// TestGatherResumesAfterTimeout: when the write of 20 pipelined
// responses, a large head and its body keeps timing out having written a
// part (under MinResponseRate, which a fast client meets), it resumes
// where it stopped, inside the buffered responses, at the boundary and
// inside the body: the bytes are those of a write that never timed out,
// and each request gets one completion with its whole response.
func TestGatherResumesAfterTimeout(t *testing.T) {
	input := strings.Join(gatherScript, "")
	whole := newScriptConn(input, -1)
	serveFake(t, whole, whole, &Server{Handler: gatherHandler, WriteBufferSize: 64 << 10})
	lens := splitResponses(t, whole.out, gatherScript)
	for _, step := range []int{1, 999, 4096, 24000, 64 << 10} {
		t.Run(strconv.Itoa(step), func(t *testing.T) {
			sc := newScriptConn(input, -1)
			calls := serveFake(t, &trickleConn{sc, step}, sc, &Server{Handler: gatherHandler,
				WriteBufferSize: 64 << 10, MinResponseRate: testRate, MinResponseRateGrace: testGrace})
			if !sameOutput(sc.out, whole.out) {
				t.Fatalf("wrote %d bytes unlike the %d of a write that never timed out", len(sc.out), len(whole.out))
			}
			if len(sc.writes) < len(sc.out)/step {
				t.Fatalf("%d writes of at most %d bytes for %d bytes", len(sc.writes), step, len(sc.out))
			}
			checkWhole(t, calls, lens)
		})
	}
}

// checkWhole checks one completion per request of gatherScript, in
// order, each with its whole response (lens) and no error.
func checkWhole(t *testing.T, calls []RequestInfo, lens []int) {
	t.Helper()
	if len(calls) != len(gatherScript) {
		t.Fatalf("%d completions, want %d", len(calls), len(gatherScript))
	}
	for i, in := range calls {
		if want := strings.Fields(gatherScript[i])[1]; in.Route != want || in.BytesWritten != int64(lens[i]) || in.Err != nil {
			t.Errorf("completion %d: %q written %d err %v, want %q written %d", i, in.Route, in.BytesWritten, in.Err, want, lens[i])
		}
	}
}

// TestGatherCutShort: when the write carrying the large response fails,
// in the buffered responses before its head, in its head or in its body,
// the connection holds exactly the bytes the write took, and each
// request gets one completion: those written whole with their length and
// no error, the one cut with the bytes it got and the write's error
// (which a cut at a WriteTimeout is too); the request after it is not
// served.
func TestGatherCutShort(t *testing.T) {
	input := strings.Join(gatherScript, "")
	whole := newScriptConn(input, -1)
	serveFake(t, whole, whole, &Server{Handler: gatherHandler, WriteBufferSize: 64 << 10})
	lens := splitResponses(t, whole.out, gatherScript)
	big := 0 // where the large response starts
	for _, n := range lens[:20] {
		big += n
	}
	body := big + lens[20] - 200000 // where its body starts
	for _, tc := range []struct {
		name    string
		at      int
		timeout bool // cut by a WriteTimeout, not by a failed write
	}{
		{"in_pipelined", big - 500, false},
		{"in_head", body - 5, false}, // after its Date field
		{"at_body", body, false},
		{"in_body", big + 100000, false},
		{"timeout_in_head", body - 5, true},
		{"timeout_in_body", big + 100000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{Handler: gatherHandler, WriteBufferSize: 64 << 10}
			sc := newScriptConn(input, tc.at)
			var nc net.Conn = sc
			wantErr := errScriptBroken
			if tc.timeout {
				// The write times out having taken the bytes up to
				// tc.at; with the rate off it is not resumed.
				nc = timeoutConn{sc}
				s.WriteTimeout, s.MinResponseRate = time.Second, -1
				wantErr = os.ErrDeadlineExceeded
			}
			calls := serveFake(t, nc, sc, s)
			if len(sc.out) != tc.at || !sameOutput(sc.out, whole.out[:tc.at]) {
				t.Fatalf("wrote %d bytes, want the first %d of the whole output", len(sc.out), tc.at)
			}
			if len(calls) != len(gatherScript)-1 { // the last request is not served
				t.Fatalf("%d completions, want %d", len(calls), len(gatherScript)-1)
			}
			at := 0 // where response i starts
			for i, in := range calls {
				want := int64(min(max(tc.at-at, 0), lens[i]))
				var err error
				if want < int64(lens[i]) {
					err = wantErr
				}
				if in.BytesWritten != want || !errors.Is(in.Err, err) || err == nil && in.Err != nil {
					t.Errorf("completion %d (%s): written %d err %v, want %d err %v", i, in.Route, in.BytesWritten, in.Err, want, err)
				}
				at += lens[i]
			}
		})
	}
}

// TestGatherLoneBodyOneWrite: a body larger than the write buffer, with
// nothing buffered before it (a streamed body after a Flush), goes out in
// one Write of its own, and no empty Write comes before it: on a
// connection that does not gather writes, net.Buffers would hand it the
// empty write buffer first, which a net.Pipe delivers to its reader as a
// read of no bytes.
func TestGatherLoneBodyOneWrite(t *testing.T) {
	sc := newScriptConn("GET /lone HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", -1)
	serveFake(t, sc, sc, &Server{Handler: func(c *Ctx) {
		c.Response.Header.Set("Content-Length", "100000")
		bw := c.BodyWriter()
		bw.Flush()
		bw.Write(gatherBody[:100000])
	}})
	if len(sc.writes) != 2 || sc.writes[1] != 100000 {
		t.Fatalf("writes of %v bytes, want the head's, then one of the 100000 of the body", sc.writes)
	}
	if !bytes.HasSuffix(sc.out, gatherBody[:100000]) {
		t.Fatal("the body is not the last bytes written")
	}
}
