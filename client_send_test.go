package brisk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// captureServer is a raw server that reads each request with net/http's
// parser (body and trailers included), sends its exact bytes on the
// returned channel and answers answer (keep-alive).
func captureServer(t *testing.T, answer string) (string, <-chan string, *atomic.Int64) {
	t.Helper()
	got := make(chan string, 16)
	url, conns := rawServer(t, func(_ int64, nc net.Conn) {
		var raw bytes.Buffer
		br := bufio.NewReader(io.TeeReader(nc, &raw))
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			if _, err := io.Copy(io.Discard, req.Body); err != nil {
				got <- "body error: " + err.Error()
				return
			}
			got <- raw.String()
			raw.Reset()
			if _, err := io.WriteString(nc, answer); err != nil {
				return
			}
		}
	})
	return url, got, conns
}

const ok200 = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

// pieces is an io.Reader returning one piece per Read, then io.EOF, and
// calling last (when set) just before it returns io.EOF.
type pieces struct {
	p    []string
	last func()
}

func (r *pieces) Read(b []byte) (int, error) {
	if len(r.p) == 0 {
		if r.last != nil {
			r.last()
			r.last = nil
		}
		return 0, io.EOF
	}
	n := copy(b, r.p[0])
	if r.p[0] = r.p[0][n:]; r.p[0] == "" {
		r.p = r.p[1:]
	}
	return n, nil
}

// TestClientStreamWire checks the exact request bytes of streamed bodies:
// Content-Length for a known size, chunks (one per Read) with a trailer
// section for an unknown size.
func TestClientStreamWire(t *testing.T) {
	url, got, _ := captureServer(t, ok200)
	host := strings.TrimPrefix(url, "http://")
	cases := []struct {
		name  string
		size  int64
		body  []string
		trail bool
		want  string
	}{
		{"sized", 10, []string{"hello", "world"}, false,
			"POST /up HTTP/1.1\r\nHost: " + host + "\r\nAccept-Encoding: gzip\r\nContent-Length: 10\r\n\r\nhelloworld"},
		{"sized_empty", 0, nil, false,
			"POST /up HTTP/1.1\r\nHost: " + host + "\r\nAccept-Encoding: gzip\r\nContent-Length: 0\r\n\r\n"},
		{"sized_stops_at_size", 4, []string{"hello"}, false,
			"POST /up HTTP/1.1\r\nHost: " + host + "\r\nAccept-Encoding: gzip\r\nContent-Length: 4\r\n\r\nhell"},
		{"chunked", -1, []string{"hello", "wor", "ld"}, false,
			"POST /up HTTP/1.1\r\nHost: " + host + "\r\nAccept-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" +
				"5\r\nhello\r\n3\r\nwor\r\n2\r\nld\r\n0\r\n\r\n"},
		{"chunked_empty", -1, nil, false,
			"POST /up HTTP/1.1\r\nHost: " + host + "\r\nAccept-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
		{"chunked_trailer", -1, []string{"hello"}, true,
			"POST /up HTTP/1.1\r\nHost: " + host + "\r\nAccept-Encoding: gzip\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n" +
				"5\r\nhello\r\n0\r\nX-Sum: 42\r\n\r\n"},
	}
	var c Client
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var req Request
			var resp Response
			req.SetMethod("POST")
			req.SetURI(url + "/up")
			body := &pieces{p: tc.body}
			if tc.trail {
				req.Trailer.Set("X-Sum", "0")
				body.last = func() { req.Trailer.Set("X-Sum", "42") }
			}
			req.SetBodyStream(body, tc.size)
			if err := c.Do(&req, &resp); err != nil {
				t.Fatal(err)
			}
			if w := <-got; w != tc.want {
				t.Errorf("sent\n%q\nwant\n%q", w, tc.want)
			}
			if resp.StatusCode() != 200 {
				t.Errorf("status %d", resp.StatusCode())
			}
		})
	}
}

// genReader generates n bytes of a repeating pattern without holding
// them, counting the bytes read.
type genReader struct {
	n, read int64
}

func (g *genReader) Read(p []byte) (int, error) {
	if g.read == g.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), g.n-g.read)]
	for i := range p {
		p[i] = byte(g.read + int64(i))
	}
	g.read += int64(len(p))
	return len(p), nil
}

// sumHandler answers with the length of the body read and its byte sum,
// and the trailer field X-Sum.
func sumHandler(c *Ctx) {
	var n, sum int64
	buf := make([]byte, 32<<10)
	r := c.Request.BodyReader()
	for {
		m, err := r.Read(buf)
		for _, b := range buf[:m] {
			sum += int64(b)
		}
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			c.Response.SetStatusCode(400)
			return
		}
	}
	fmt.Fprintf(&c.Response, "%d %d %s", n, sum, c.Request.Trailer.Get("X-Sum"))
}

func wantSum(n int64) int64 {
	var s int64
	for i := range n {
		s += int64(byte(i))
	}
	return s
}

// startStreamServer starts a brisk server with s's configuration on TCP
// loopback and returns its URL.
func startStreamServer(t testing.TB, s *Server) string {
	t.Helper()
	s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { s.Serve(ln); close(done) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		<-done
	})
	return "http://" + ln.Addr().String()
}

// TestClientStreamToBrisk streams 1 MiB bodies to a brisk server, sized
// and chunked with a trailer, on one keep-alive connection.
func TestClientStreamToBrisk(t *testing.T) {
	url := startStreamServer(t, &Server{Handler: sumHandler, MaxBodyBytes: -1})
	var c Client
	const n = 1 << 20
	for _, size := range []int64{n, -1} {
		var req Request
		var resp Response
		req.SetMethod("PUT")
		req.SetURI(url + "/")
		req.Trailer.Set("X-Sum", "t")
		req.SetBodyStream(&genReader{n: n}, size)
		if err := c.Do(&req, &resp); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		want := fmt.Sprintf("%d %d ", n, wantSum(n))
		if size < 0 {
			want += "t"
		}
		if string(resp.Body()) != want {
			t.Errorf("size %d: got %q, want %q", size, resp.Body(), want)
		}
	}
}

var errBoom = errors.New("boom")

// failReader returns n bytes, then err.
type failReader struct {
	n   int
	err error
}

func (f *failReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, f.err
	}
	m := min(len(p), f.n)
	f.n -= m
	return m, nil
}

// TestClientStreamReaderFails: a body that fails or ends early aborts the
// exchange with ErrRequestBody wrapping the cause, and the connection is
// closed (the next request dials).
func TestClientStreamReaderFails(t *testing.T) {
	url, got, conns := captureServer(t, ok200)
	cases := []struct {
		name string
		size int64
		r    io.Reader
		want error
	}{
		{"sized_reader_error", 100000, &failReader{n: 40000, err: errBoom}, errBoom},
		{"chunked_reader_error", -1, &failReader{n: 40000, err: errBoom}, errBoom},
		{"sized_short", 100, &failReader{n: 50, err: io.EOF}, io.ErrUnexpectedEOF},
	}
	var c Client
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var req Request
			var resp Response
			req.SetMethod("POST")
			req.SetURI(url + "/")
			req.SetBodyStream(tc.r, tc.size)
			err := c.Do(&req, &resp)
			if !errors.Is(err, ErrRequestBody) || !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want ErrRequestBody and %v", err, tc.want)
			}
			// The connection is closed: the server sees a cut body.
			if w := <-got; !strings.HasPrefix(w, "body error") {
				t.Errorf("server read %q", w)
			}
			if n := conns.Load(); n != int64(i+1) {
				t.Errorf("connections %d, want %d", n, i+1)
			}
		})
	}
}

// closeAfterFirst is a raw server whose first connection answers one
// request, then reads the next head and closes without answering; the
// others answer every request. It counts the request bodies received.
func closeAfterFirst(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var bodies atomic.Int64
	url, _ := rawServer(t, func(i int64, nc net.Conn) {
		br := bufio.NewReader(nc)
		for k := 0; ; k++ {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			if i == 0 && k == 1 {
				return
			}
			if b, _ := io.ReadAll(req.Body); len(b) > 0 {
				bodies.Add(1)
			}
			io.WriteString(nc, ok200)
		}
	})
	return url, &bodies
}

// TestClientStreamRetry: an idempotent request with a streamed body whose
// reused connection turns out closed is retried only with a GetBody.
func TestClientStreamRetry(t *testing.T) {
	for _, rewind := range []bool{false, true} {
		t.Run(fmt.Sprint("getbody_", rewind), func(t *testing.T) {
			url, bodies := closeAfterFirst(t)
			var c Client
			var req Request
			var resp Response
			req.SetURI(url + "/")
			if err := c.Do(&req, &resp); err != nil {
				t.Fatal(err)
			}
			req.SetMethod("PUT")
			req.SetBodyStream(strings.NewReader("hello"), 5)
			calls := 0
			if rewind {
				req.SetGetBody(func() (io.Reader, error) {
					calls++
					return strings.NewReader("hello"), nil
				})
			}
			err := c.Do(&req, &resp)
			switch {
			case rewind && (err != nil || calls != 1 || bodies.Load() != 1):
				t.Fatalf("err %v, GetBody calls %d, bodies %d; want nil, 1, 1", err, calls, bodies.Load())
			case !rewind && !errors.Is(err, ErrConnectionClosed):
				t.Fatalf("err %v, want ErrConnectionClosed (not retried)", err)
			case !rewind:
				if err := c.Do(&req, &resp); !errors.Is(err, ErrBodyNotRewindable) {
					t.Fatalf("sent again: err %v, want ErrBodyNotRewindable", err)
				}
			}
		})
	}
}

// TestClientStreamRedirect: a 307 is followed with the body again only
// when it can be rewound; otherwise the 307 is the response.
func TestClientStreamRedirect(t *testing.T) {
	url := startStreamServer(t, &Server{Handler: func(c *Ctx) {
		if string(c.Request.Path()) == "/old" {
			c.Response.Header.Set("Location", "/new")
			c.Response.SetStatusCode(307)
			return
		}
		sumHandler(c)
	}})
	c := Client{ClientConfig: ClientConfig{MaxRedirects: 3}}
	for _, rewind := range []bool{false, true} {
		var req Request
		var resp Response
		req.SetMethod("POST")
		req.SetURI(url + "/old")
		req.SetBodyStream(strings.NewReader("abc"), -1)
		if rewind {
			req.SetGetBody(func() (io.Reader, error) { return strings.NewReader("abc"), nil })
		}
		if err := c.Do(&req, &resp); err != nil {
			t.Fatal(err)
		}
		want, body := 307, ""
		if rewind {
			want, body = 200, "3 294 "
		}
		if resp.StatusCode() != want || string(resp.Body()) != body {
			t.Errorf("rewind %v: %d %q, want %d %q", rewind, resp.StatusCode(), resp.Body(), want, body)
		}
	}
}

// countReader counts the bytes read from r.
type countReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestClientExpectContinueBrisk: against a brisk server, a body too large
// for MaxBodyBytes is refused with 413 before it is sent (nothing read
// from it), without waiting for ExpectContinueTimeout; one within the
// limit is sent after 100 (Continue), also without waiting.
func TestClientExpectContinueBrisk(t *testing.T) {
	url := startStreamServer(t, &Server{Handler: sumHandler, MaxBodyBytes: 1 << 10})
	c := Client{ClientConfig: ClientConfig{ExpectContinueTimeout: time.Minute}}
	for _, size := range []int64{1 << 20, 1000} {
		var req Request
		var resp Response
		req.SetMethod("POST")
		req.SetURI(url + "/")
		req.Header.Set("Expect", "100-continue")
		body := &countReader{r: &genReader{n: size}}
		req.SetBodyStream(body, size)
		start := time.Now()
		if err := c.DoTimeout(&req, &resp, 20*time.Second); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("size %d: took %v: waited for the timeout", size, d)
		}
		wantStatus, wantRead := 200, size
		if size > 1<<10 {
			wantStatus, wantRead = 413, 0
		}
		if resp.StatusCode() != wantStatus || body.n.Load() != wantRead {
			t.Errorf("size %d: status %d, %d bytes read; want %d, %d",
				size, resp.StatusCode(), body.n.Load(), wantStatus, wantRead)
		}
	}
}

// TestClientExpectContinueRaw checks 100-continue against scripted
// servers: one that never sends 100 (the body goes after the timeout),
// and one that refuses a chunked body with a keep-alive 413 (the body is
// ended with its last chunk at once and the connection is reused).
func TestClientExpectContinueRaw(t *testing.T) {
	t.Run("timeout_sends_body", func(t *testing.T) {
		url, got, _ := captureServer(t, ok200)
		c := Client{ClientConfig: ClientConfig{ExpectContinueTimeout: 50 * time.Millisecond}}
		var req Request
		var resp Response
		req.SetMethod("POST")
		req.SetURI(url + "/")
		req.Header.Set("Expect", "100-continue")
		req.SetBodyString("hello")
		if err := c.Do(&req, &resp); err != nil || resp.StatusCode() != 200 {
			t.Fatalf("err %v status %d", err, resp.StatusCode())
		}
		if w := <-got; !strings.HasSuffix(w, "Expect: 100-continue\r\nAccept-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello") {
			t.Errorf("sent %q", w)
		}
	})
	t.Run("chunked_refused_keeps_conn", func(t *testing.T) {
		var tail atomic.Value
		url, conns := rawServer(t, func(_ int64, nc net.Conn) {
			br := bufio.NewReader(nc)
			if !readHead(br) {
				return
			}
			io.WriteString(nc, "HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n\r\n")
			line, _ := br.ReadString('\n')
			blank, _ := br.ReadString('\n')
			tail.Store(line + blank)
			for readHead(br) {
				io.WriteString(nc, ok200)
			}
		})
		var c Client
		var req Request
		var resp Response
		req.SetMethod("POST")
		req.SetURI(url + "/")
		req.Header.Set("Expect", "100-continue")
		body := &countReader{r: strings.NewReader("never sent")}
		req.SetBodyStream(body, -1)
		if err := c.Do(&req, &resp); err != nil || resp.StatusCode() != 413 {
			t.Fatalf("err %v status %d", err, resp.StatusCode())
		}
		if body.n.Load() != 0 {
			t.Errorf("%d bytes read from a refused body", body.n.Load())
		}
		req.Reset()
		req.SetURI(url + "/")
		if err := c.Do(&req, &resp); err != nil || resp.StatusCode() != 200 {
			t.Fatalf("second: err %v status %d", err, resp.StatusCode())
		}
		if tail.Load() != "0\r\n\r\n" || conns.Load() != 1 {
			t.Errorf("after the 413 the server read %q, connections %d; want last chunk, 1", tail.Load(), conns.Load())
		}
	})
}

// TestClientStreamMemory streams a 1 GiB generated body to a brisk server
// and checks that the client's memory does not grow with it: heap in use
// and memory obtained from the system grow by less than 32 MiB.
func TestClientStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 1 GiB; skipped with -short")
	}
	url := startStreamServer(t, &Server{Handler: sumHandler, MaxBodyBytes: -1})
	const n = 1 << 30
	var req Request
	var resp Response
	req.SetMethod("POST")
	req.SetURI(url + "/")
	req.SetBodyStream(&genReader{n: n}, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := Client{ClientConfig: ClientConfig{Timeout: 2 * time.Minute}}
	if err := c.Do(&req, &resp); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if !strings.HasPrefix(string(resp.Body()), strconv.Itoa(n)+" ") {
		t.Fatalf("server got %q", resp.Body())
	}
	heap := int64(after.HeapInuse) - int64(before.HeapInuse)
	sys := int64(after.Sys) - int64(before.Sys)
	t.Logf("1 GiB upload: HeapInuse %+d KiB, Sys %+d KiB", heap>>10, sys>>10)
	if heap > 32<<20 || sys > 32<<20 {
		t.Errorf("memory grew: HeapInuse %+d, Sys %+d bytes; want < 32 MiB", heap, sys)
	}
}

// TestClientBodyEarlyResponse is TestClientStreamEarlyResponse for a
// body set with SetBody.
func TestClientBodyEarlyResponse(t *testing.T) {
	url := startStreamServer(t, &Server{Handler: sumHandler, MaxBodyBytes: 1 << 10})
	var c Client
	var req Request
	var resp Response
	req.SetMethod("POST")
	req.SetURI(url + "/")
	req.SetBody(make([]byte, 64<<20))
	if err := c.Do(&req, &resp); err != nil || resp.StatusCode() != 413 {
		t.Fatalf("err %v, status %d; want nil, 413", err, resp.StatusCode())
	}
}

// TestClientStreamEarlyResponse: a brisk server answers a body over its
// MaxBodyBytes with 413 and closes without reading it; the client, whose
// write then fails, returns the 413 rather than the write error.
func TestClientStreamEarlyResponse(t *testing.T) {
	url := startStreamServer(t, &Server{Handler: sumHandler, MaxBodyBytes: 1 << 10})
	var c Client
	var req Request
	var resp Response
	req.SetMethod("POST")
	req.SetURI(url + "/")
	body := &countReader{r: &genReader{n: 64 << 20}}
	req.SetBodyStream(body, 64<<20)
	if err := c.Do(&req, &resp); err != nil || resp.StatusCode() != 413 {
		t.Fatalf("err %v, status %d; want nil, 413", err, resp.StatusCode())
	}
	if body.n.Load() == 64<<20 {
		t.Error("the whole body was read")
	}
}

// TestRequestResendable: a request may be sent again when its method is
// idempotent and its body can be sent again.
func TestRequestResendable(t *testing.T) {
	getBody := func() (io.Reader, error) { return strings.NewReader("x"), nil }
	cases := []struct {
		name   string
		method string
		body   func(r *Request)
		want   bool
	}{
		{"no_method", "", func(*Request) {}, true},
		{"get", "GET", func(*Request) {}, true},
		{"delete", "DELETE", func(*Request) {}, true},
		{"post", "POST", func(*Request) {}, false},
		{"patch_body", "PATCH", func(r *Request) { r.SetBody([]byte("x")) }, false},
		{"put_body", "PUT", func(r *Request) { r.SetBody([]byte("x")) }, true},
		{"put_stream_unread", "PUT", func(r *Request) { r.SetBodyStream(strings.NewReader("x"), 1) }, true},
		{"put_stream_read", "PUT", func(r *Request) {
			r.SetBodyStream(strings.NewReader("x"), 1)
			r.stream.reader()
		}, false},
		{"put_stream_read_getbody", "PUT", func(r *Request) {
			r.SetBodyStream(strings.NewReader("x"), 1)
			r.SetGetBody(getBody)
			r.stream.reader()
		}, true},
		{"post_stream_getbody", "POST", func(r *Request) {
			r.SetBodyStream(strings.NewReader("x"), 1)
			r.SetGetBody(getBody)
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r Request
			if tc.method != "" {
				r.SetMethod(tc.method)
			}
			tc.body(&r)
			if got := r.Resendable(); got != tc.want {
				t.Fatalf("Resendable() = %v, want %v", got, tc.want)
			}
		})
	}
}
