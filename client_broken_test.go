package brisk

import (
	"bufio"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk/wire"
)

// rawServer listens on loopback and serves each accepted connection with
// serve, given the connection's index (0 for the first), in its own
// goroutine; the connection is closed when serve returns. It returns the
// server's URL and the count of connections accepted; the listener closes,
// and the accept loop ends, when the test does.
func rawServer(t *testing.T, serve func(i int64, nc net.Conn)) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := new(atomic.Int64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			i := conns.Add(1) - 1
			go func() {
				defer nc.Close()
				serve(i, nc)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return "http://" + ln.Addr().String(), conns
}

// brokenServer is a raw server that reads one request head per connection,
// then plays the broken response play writes.
func brokenServer(t *testing.T, play func(nc net.Conn)) string {
	t.Helper()
	url, _ := rawServer(t, func(_ int64, nc net.Conn) {
		if readHead(bufio.NewReader(nc)) {
			play(nc)
		}
	})
	return url
}

// send writes s and returns.
func send(s string) func(net.Conn) {
	return func(nc net.Conn) { io.WriteString(nc, s) }
}

// sendThenSilence writes s, then waits without a byte until the client
// closes the connection.
func sendThenSilence(s string) func(net.Conn) {
	return func(nc net.Conn) {
		io.WriteString(nc, s)
		io.Copy(io.Discard, nc)
	}
}

// sendForever writes head, then repeat until the client closes.
func sendForever(head, repeat string) func(net.Conn) {
	return func(nc net.Conn) {
		if _, err := io.WriteString(nc, head); err != nil {
			return
		}
		for {
			if _, err := io.WriteString(nc, repeat); err != nil {
				return
			}
		}
	}
}

const brokenDeadline = 300 * time.Millisecond

func TestClientBrokenResponses(t *testing.T) {
	ok := "HTTP/1.1 200 OK\r\n"
	cases := []struct {
		name   string
		play   func(net.Conn)
		config func(c *Client)
		want   []error // the error must satisfy errors.Is with each
	}{
		{"garbage_status_line", send("garbage\r\n\r\n"), nil, []error{wire.ErrStatusLine}},
		{"status_code_2000", send("HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n"), nil, []error{wire.ErrStatusCode}},
		{"status_code_099", send("HTTP/1.1 099 Low\r\n\r\n"), nil, []error{wire.ErrStatusCode}},
		{"http2_version", send("HTTP/2.0 200 OK\r\n\r\n"), nil, []error{wire.ErrVersionUnsupported}},
		{"bare_lf_in_head", send("HTTP/1.1 200 OK\nContent-Length: 0\n\n"), nil, []error{wire.ErrLineEnding}},
		{"bare_cr_in_head", send(ok + "X: a\rb\r\n\r\n"), nil, []error{wire.ErrLineEnding}},
		{"field_with_nul", send(ok + "X: a\x00b\r\nContent-Length: 0\r\n\r\n"), nil, []error{wire.ErrFieldValue}},
		{"space_before_first_field", send(ok + " X: a\r\nContent-Length: 0\r\n\r\n"), nil, []error{wire.ErrObsFold}}, // obs-fold is unfolded: TestClientObsFold
		{"head_larger_than_limit", send(ok + "X: " + strings.Repeat("a", 4000) + "\r\n\r\n"),
			func(c *Client) { c.MaxResponseHeaderBytes = 1024 }, []error{wire.ErrHeaderTooLarge}},
		{"endless_head", sendForever(ok, "X: "+strings.Repeat("a", 1000)+"\r\n"), nil, []error{wire.ErrHeaderTooLarge}},
		{"too_many_fields", send(ok + strings.Repeat("X: a\r\n", 10) + "\r\n"),
			func(c *Client) { c.MaxResponseFields = 4 }, []error{wire.ErrTooManyFields}},
		{"two_content_lengths", send(ok + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello"), nil, []error{wire.ErrContentLength}},
		{"negative_content_length", send(ok + "Content-Length: -1\r\n\r\n"), nil, []error{wire.ErrContentLength}},
		{"content_length_and_chunked", send(ok + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"), nil, []error{wire.ErrFraming}},
		{"chunked_in_http10", send("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), nil, []error{wire.ErrFraming}},
		{"unknown_transfer_coding", send(ok + "Transfer-Encoding: gzip\r\n\r\n"), nil, []error{wire.ErrTransferCoding}},
		{"invalid_chunk_size", send(ok + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n"), nil, []error{wire.ErrChunkSize}},
		{"chunk_data_without_crlf", send(ok + "Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX"), nil, []error{wire.ErrChunkData}},
		{"missing_last_chunk_then_silence", sendThenSilence(ok + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"), nil, []error{ErrTimeout}},
		{"missing_last_chunk_then_close", send(ok + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"), nil, []error{ErrConnectionClosed, io.ErrUnexpectedEOF}},
		{"endless_chunked_beyond_body_limit", sendForever(ok+"Transfer-Encoding: chunked\r\n\r\n", "400\r\n"+strings.Repeat("z", 1024)+"\r\n"),
			func(c *Client) { c.MaxResponseBodyBytes = 64 << 10 }, []error{ErrBodyTooLarge}},
		{"endless_trailer", sendForever(ok+"Transfer-Encoding: chunked\r\n\r\n0\r\n", "T: aaaaaaaaaaaaaaaaaaaa\r\n"),
			func(c *Client) { c.MaxResponseHeaderBytes = 1024 }, []error{wire.ErrTrailerTooLarge}},
		{"content_length_short_then_close", send(ok + "Content-Length: 10\r\n\r\nabc"), nil, []error{ErrConnectionClosed, io.ErrUnexpectedEOF}},
		{"content_length_short_then_silence", sendThenSilence(ok + "Content-Length: 10\r\n\r\nabc"), nil, []error{ErrTimeout}},
		{"content_length_over_body_limit", sendThenSilence(ok + "Content-Length: 9000000000000000000\r\n\r\nabc"), nil, []error{ErrBodyTooLarge}},
		{"close_delimited_beyond_body_limit", sendForever(ok+"\r\n", strings.Repeat("z", 1024)),
			func(c *Client) { c.MaxResponseBodyBytes = 64 << 10 }, []error{ErrBodyTooLarge}},
		{"closed_before_any_byte", send(""), nil, []error{ErrConnectionClosed, io.EOF}},
		{"closed_mid_status_line", send("HTTP/1.1 20"), nil, []error{ErrConnectionClosed, io.ErrUnexpectedEOF}},
		{"closed_mid_head", send(ok + "Content-"), nil, []error{ErrConnectionClosed, io.ErrUnexpectedEOF}},
		{"silence", sendThenSilence(""), nil, []error{ErrTimeout}},
		{"silence_mid_head", sendThenSilence(ok + "X: 1\r\n"), nil, []error{ErrTimeout}},
		{"continue_then_nothing", sendThenSilence("HTTP/1.1 100 Continue\r\n\r\n"), nil, []error{ErrTimeout}},
		{"continue_then_close", send("HTTP/1.1 100 Continue\r\n\r\n"), nil, []error{ErrConnectionClosed, io.ErrUnexpectedEOF}},
		{"endless_1xx", sendForever("", "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"), nil, []error{ErrTooManyInterimResponses}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := brokenServer(t, tc.play)
			var c Client
			if tc.config != nil {
				tc.config(&c)
			}
			base := runtime.NumGoroutine()
			var req Request
			var resp Response
			req.SetURI(url + "/")
			start := time.Now()
			err := c.DoTimeout(&req, &resp, brokenDeadline)
			elapsed := time.Since(start)
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("err = %v; want errors.Is(err, %v)", err, w)
				}
			}
			if elapsed > brokenDeadline+500*time.Millisecond {
				t.Errorf("returned after %v, deadline %v", elapsed, brokenDeadline)
			}
			c.CloseIdleConnections()
			waitGoroutines(t, base)
		})
	}
}

// waitGoroutines waits up to 2 s for the goroutine count to come back to
// at most base.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, baseline %d:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestClientClaimedLengthNotAllocated: a huge claimed Content-Length
// with the body limit off allocates for the bytes received, not the claim
// (fasthttp #2344).
func TestClientClaimedLengthNotAllocated(t *testing.T) {
	url := brokenServer(t, send("HTTP/1.1 200 OK\r\nContent-Length: 9000000000000000000\r\n\r\n"+strings.Repeat("a", 100)))
	c := Client{ClientConfig: ClientConfig{MaxResponseBodyBytes: -1}}
	var req Request
	var resp Response
	req.SetURI(url + "/")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := c.DoTimeout(&req, &resp, time.Second)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrConnectionClosed) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want ErrConnectionClosed and io.ErrUnexpectedEOF", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Fatalf("allocated %d bytes for a 100-byte body", d)
	}
}

// TestClientBodyTooLargeEmptiesBody: after ErrBodyTooLarge the
// response body is empty, never a truncated body, whatever the framing,
// and the error names the limit, its value and how to raise it.
func TestClientBodyTooLargeEmptiesBody(t *testing.T) {
	ok := "HTTP/1.1 200 OK\r\n"
	const limit = 1000
	const grown = "wire: body too large: response body over MaxResponseBodyBytes (1000 bytes); " +
		"raise ClientConfig.MaxResponseBodyBytes (negative: no limit) or read it with DoStream"
	const claimed = "wire: body too large: response Content-Length 1001 over MaxResponseBodyBytes (1000 bytes); " +
		"raise ClientConfig.MaxResponseBodyBytes (negative: no limit) or read it with DoStream"
	cases := []struct {
		name string
		play func(net.Conn)
		msg  string
	}{
		{"endless_chunked", sendForever(ok+"Transfer-Encoding: chunked\r\n\r\n", "7\r\nzzzzzzz\r\n"), grown},
		{"endless_chunked_big_chunks", sendForever(ok+"Transfer-Encoding: chunked\r\n\r\n", "400\r\n"+strings.Repeat("z", 1024)+"\r\n"), grown},
		{"endless_close_delimited", sendForever(ok+"\r\n", strings.Repeat("z", 333)), grown},
		{"content_length_over_limit", sendThenSilence(ok + "Content-Length: 1001\r\n\r\n" + strings.Repeat("z", 1001)), claimed},
		{"limit_plus_one_chunked", send(ok + "Transfer-Encoding: chunked\r\n\r\n3e9\r\n" + strings.Repeat("z", limit+1) + "\r\n0\r\n\r\n"), grown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := brokenServer(t, tc.play)
			c := Client{ClientConfig: ClientConfig{MaxResponseBodyBytes: limit}}
			defer c.CloseIdleConnections()
			var req Request
			var resp Response
			req.SetURI(url + "/")
			err := c.DoTimeout(&req, &resp, 2*time.Second)
			if !errors.Is(err, ErrBodyTooLarge) || len(resp.Body()) != 0 || resp.StatusCode() != 200 {
				t.Fatalf("err %v, status %d, body of %d bytes; want ErrBodyTooLarge, 200, empty", err, resp.StatusCode(), len(resp.Body()))
			}
			if err.Error() != tc.msg {
				t.Fatalf("error %q, want %q", err, tc.msg)
			}
		})
	}
	// A body of exactly the limit is read whole.
	url := brokenServer(t, send(ok+"Transfer-Encoding: chunked\r\n\r\n3e8\r\n"+strings.Repeat("z", limit)+"\r\n0\r\n\r\n"))
	c := Client{ClientConfig: ClientConfig{MaxResponseBodyBytes: limit}}
	var req Request
	var resp Response
	req.SetURI(url + "/")
	if err := c.DoTimeout(&req, &resp, 2*time.Second); err != nil || len(resp.Body()) != limit {
		t.Fatalf("body at the limit: %v, %d bytes", err, len(resp.Body()))
	}
}
