package brisk

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFromHTTPBodyCloseKeepAlive compares with net/http's server the
// keep-alive decision after the handler closes a body it read only in
// part: Close discards a rest of up to 256 KiB (net/http's
// maxPostHandlerReadBytes) and the next pipelined request is served; a
// longer rest closes the connection after the response.
func TestFromHTTPBodyCloseKeepAlive(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/next" {
			io.WriteString(w, "next")
			return
		}
		n, _ := strconv.Atoi(r.URL.Query().Get("read"))
		got, err := io.ReadFull(r.Body, make([]byte, n))
		cerr := r.Body.Close()
		_, rerr := r.Body.Read(make([]byte, 1))
		fmt.Fprintf(w, "read %d %v, close %v, read after close %v, trailer %v", got, err, cerr, rerr, r.Trailer)
	})
	netHTTP, brisk := diffServers(t, h, nil)
	length := func(n int) string {
		return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", n, strings.Repeat("b", n))
	}
	chunked := func(n int) string {
		return fmt.Sprintf("Transfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n%x\r\n%s\r\n0\r\nX-Sum: 1\r\n\r\n", n, strings.Repeat("b", n))
	}
	cases := []struct{ name, first string }{
		{"length_small", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + length(20)},
		{"length_none_read", "POST /?read=0 HTTP/1.1\r\nHost: x\r\n" + length(20)},
		{"length_all_read", "POST /?read=20 HTTP/1.1\r\nHost: x\r\n" + length(20)},
		{"length_at_bound", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + length(2+256<<10)},
		{"length_past_bound", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + length(3+256<<10)},
		{"length_large", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + length(600<<10)},
		{"chunked_small", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + chunked(20)},
		{"chunked_at_bound", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + chunked(1+256<<10)},
		{"chunked_past_bound", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + chunked(12+256<<10)},
		{"chunked_large", "POST /?read=2 HTTP/1.1\r\nHost: x\r\n" + chunked(600<<10)},
		{"expect_none_read", "POST /?read=0 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n" + length(20)},
		{"expect_small", "POST /?read=2 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n" + length(20)},
		{"close_request", "POST /?read=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + length(20)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw := tc.first + get("/next")
			want, wantOpen := rawPipelined(t, netHTTP, raw, 2)
			got, gotOpen := rawPipelined(t, brisk, raw, 2)
			if got != want {
				t.Errorf("brisk:\n%q\nnet/http:\n%q", got, want)
			}
			if gotOpen != wantOpen {
				t.Errorf("connection open after the responses: brisk %v, net/http %v", gotOpen, wantOpen)
			}
		})
	}
}

// rawPipelined sends raw, holding pipelined requests, on a new
// connection, reads up to n responses (fewer when the server closes
// first), and returns their raw bytes with Date values blanked and
// whether the connection then stayed open.
func rawPipelined(t *testing.T, dial func() (net.Conn, error), raw string, n int) (string, bool) {
	t.Helper()
	nc, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	go io.WriteString(nc, raw) // the server may answer before it reads all
	var got bytes.Buffer
	br := bufio.NewReader(io.TeeReader(nc, &got))
	closing := false
	for range n {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return noDate(got.String()), false
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		closing = resp.Close
	}
	wait := 300 * time.Millisecond // a close under load may take a while
	if closing {
		wait = 2 * time.Second // net/http lingers 500 ms before it closes
	}
	nc.SetReadDeadline(time.Now().Add(wait))
	_, err = br.ReadByte()
	return noDate(got.String()), err != nil && isTimeout(err)
}

// TestFromHTTPEarlyCloseNotInherited: a request whose body Close left a
// rest unread closes its own connection only; the next request served
// by the same pooled exchange, on another connection and without a body,
// keeps its connection (two pipelined requests both answered).
func TestFromHTTPEarlyCloseNotInherited(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body.Read(make([]byte, 2))
		r.Body.Close()
		io.WriteString(w, "ok")
	})
	_, brisk := diffServers(t, h, nil)
	large := fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", 600<<10, strings.Repeat("b", 600<<10))
	for i := range 20 {
		if _, open := rawPipelinedClosed(t, brisk, large, 1); open {
			t.Fatalf("round %d: the connection of an early-closed body stayed open", i)
		}
		got, _ := rawPipelinedClosed(t, brisk, get("/a")+get("/b"), 2)
		if n := strings.Count(got, "HTTP/1.1 200 OK"); n != 2 {
			t.Fatalf("round %d: %d of 2 pipelined requests answered after an early close elsewhere:\n%q", i, n, got)
		}
	}
}

// rawPipelinedClosed is rawPipelined without the wait for a close that
// does not come: open reports whether the connection was still open
// right after the n responses (no EOF already buffered).
func rawPipelinedClosed(t *testing.T, dial func() (net.Conn, error), raw string, n int) (string, bool) {
	t.Helper()
	nc, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	go io.WriteString(nc, raw)
	var got bytes.Buffer
	br := bufio.NewReader(io.TeeReader(nc, &got))
	closing := false
	for range n {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return got.String(), false
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		closing = resp.Close
	}
	return got.String(), !closing
}
