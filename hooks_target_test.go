package brisk

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
	"github.com/brisk-http/brisk/wire"
)

// TestHooksPipelinedTargets: pipelined requests, read in one read, each
// get their own method and request-target as received, and the client's
// address. A target that does not fit beside those queued before it in
// maxPendingText, and one longer than it, flush early (their own response
// included): the responses leave in three writes, not one.
func TestHooksPipelinedTargets(t *testing.T) {
	mid := "/mid/" + strings.Repeat("m", maxPendingText/2)
	long := "/long/" + strings.Repeat("l", maxPendingText+100)
	reqs := []string{
		get("/n/1?q=a%20b"),
		"POST /n/2 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		get(mid + "?1"),
		get(mid + "?2"), // does not fit beside the first: flushes 1-4
		"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
		"VERYLONGMETHODNAME /n/3 HTTP/1.1\r\nHost: x\r\n\r\n",
		get(long), // longer than the copy's room: flushes 5-7
		get("/n/4"),
	}
	nc := newScriptConn(strings.Join(reqs, ""), -1)
	// The script fills more than half of the read buffer, so that reading
	// each head moves the rest to the front (connio.Reader.Compact): a
	// method or target not copied would be overwritten before its call.
	s := &Server{Handler: func(c *Ctx) { c.Request.Body() }, ReadBufferSize: 12 << 10, WriteBufferSize: 64 << 10}
	calls, _ := serveScript(t, nc, s)
	lens := splitResponses(t, nc.out, reqs)
	if want := []int{lens[0] + lens[1] + lens[2] + lens[3], lens[4] + lens[5] + lens[6], lens[7]}; !slices.Equal(nc.writes, want) {
		t.Errorf("writes %v, want %v", nc.writes, want)
	}
	if len(calls) != len(reqs) {
		t.Fatalf("%d completions, want %d", len(calls), len(reqs))
	}
	for i, call := range calls {
		in := call.info
		line := strings.Fields(reqs[i])
		if string(in.Method) != line[0] || string(in.Target) != line[1] {
			t.Errorf("completion %d: %.40q %.40q, want %.40q %.40q", i, in.Method, in.Target, line[0], line[1])
		}
		if in.RemoteAddr != (fakenet.Addr{}) {
			t.Errorf("completion %d: RemoteAddr %v, want the connection's", i, in.RemoteAddr)
		}
	}
}

// TestHooksRemoteAddr: RemoteAddr is the client's address: the peer's on
// a direct connection, the PROXY header's source behind a proxy, for each
// request of the connection.
func TestHooksRemoteAddr(t *testing.T) {
	for _, tc := range []struct{ name, header, want string }{
		{"direct", "", ""}, // the client socket's own address
		{"proxy_v1", "PROXY TCP4 203.0.113.7 198.51.100.1 4242 443\r\n", "203.0.113.7:4242"},
		{"proxy_v2", proxyV2(nil), "203.0.113.7:4242"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newHookRecorder()
			s := &Server{Handler: helloHandler}
			if tc.header != "" {
				s.ProxyProtocol = loopbackOnly()
			}
			ts := startServer(t, "tcp", rec.install(s))
			c := ts.connect()
			want := tc.want
			if want == "" {
				want = c.nc.LocalAddr().String()
			}
			c.sendSync(tc.header + get("/a") + get("/b"))
			c.read("GET")
			c.read("GET")
			c.roundTrip(get("/c"))
			c.nc.Close()
			rec.waitClosed(t)
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.reqs) != 3 {
				t.Fatalf("%d requests reported, want 3", len(rec.reqs))
			}
			for i, in := range rec.reqs {
				if in.RemoteAddr == nil || in.RemoteAddr.String() != want {
					t.Errorf("request %d (%s): RemoteAddr %v, want %s", i, in.Target, in.RemoteAddr, want)
				}
			}
		})
	}
}

// TestHooksRequestErrors: a request answered without the handler (a
// declared body over MaxBodyBytes), or whose body could not be read, is
// reported with the status sent, its target and the error: the one
// OnReject got, or the body's.
func TestHooksRequestErrors(t *testing.T) {
	cases := []struct {
		name, req, target string
		status            int
		is                func(error) bool
		rejected          bool // OnReject is called too
	}{
		{"body_too_large", "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", "/big", 413,
			func(err error) bool { return errors.Is(err, ErrBodyTooLarge) }, true},
		{"body_too_large_chunked", "POST /n/0 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "/n/0", 413,
			func(err error) bool { return errors.Is(err, ErrBodyTooLarge) }, false},
		{"bad_chunk", "POST /n/0 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "/n/0", 400,
			func(err error) bool { return wire.KindOf(err) == wire.ErrChunkSize }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rejected []error
			s := &Server{Handler: sizedBody, MaxBodyBytes: 2, OnReject: func(r Rejection) { rejected = append(rejected, r.Err) }}
			calls, _ := serveScript(t, newScriptConn(tc.req, -1), s)
			if len(calls) != 1 {
				t.Fatalf("%d completions, want 1", len(calls))
			}
			in := calls[0].info
			if in.Status != tc.status || string(in.Target) != tc.target || !tc.is(in.Err) {
				t.Fatalf("status %d target %q err %v, want %d %q and the error", in.Status, in.Target, in.Err, tc.status, tc.target)
			}
			if want := map[bool]int{true: 1}[tc.rejected]; len(rejected) != want {
				t.Fatalf("%d calls of OnReject, want %d", len(rejected), want)
			}
			if tc.rejected && rejected[0] != in.Err {
				t.Fatalf("OnReject got %v, OnRequestDone %v: want the same error", rejected[0], in.Err)
			}
		})
	}
}
