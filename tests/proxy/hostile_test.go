package proxy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/reverseproxy"
)

// hostileUpstream answers "/good?id=N" with "good:N" and "/bad" with the
// broken bytes bad, reading requests on each connection until it closes:
// a connection left in use after a broken response would answer the next
// request, and bytes left over would be read as its response.
func hostileUpstream(t *testing.T, bad string) string {
	ln := testserver.Listen(t)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					if req.URL.Path == "/bad" {
						io.WriteString(c, bad)
						continue
					}
					body := "good:" + req.URL.Query().Get("id")
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// leak is what a hostile upstream smuggles after a response; no client
// may ever read it.
const leak = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nLEAKED"

// TestHostileUpstream: whatever an upstream sends for one request, the
// client gets a 502 (a broken head), a response cut short (a broken body)
// or the response, never bytes that were not part of it; and the next
// request, on the same client connection when it stays open and on
// another, gets its own response from the same upstream (one pooled
// connection, so a desynchronised one would be reused).
func TestHostileUpstream(t *testing.T) {
	ok := "HTTP/1.1 200 OK\r\n"
	cases := []struct {
		name   string
		bad    string
		status int  // wanted status of /bad
		cut    bool // the body of /bad is cut short
	}{
		{"garbage_status_line", "garbage\r\n\r\n" + leak, 502, false},
		{"status_code_2000", "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n" + leak, 502, false},
		{"http2_version", "HTTP/2.0 200 OK\r\n\r\n" + leak, 502, false},
		{"bare_lf_in_head", "HTTP/1.1 200 OK\nContent-Length: 0\n\n" + leak, 502, false},
		{"field_with_nul", ok + "X: a\x00b\r\nContent-Length: 0\r\n\r\n" + leak, 502, false},
		{"two_content_lengths", ok + "Content-Length: 2\r\nContent-Length: 3\r\n\r\nok" + leak, 502, false},
		{"content_length_and_chunked", ok + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n" + leak, 502, false},
		{"unknown_transfer_coding", ok + "Transfer-Encoding: gzip\r\n\r\nok" + leak, 502, false},
		{"response_splitting_field", ok + "X: a\r\n\rContent-Length: 0\r\n\r\n" + leak, 502, false},
		{"too_many_interim", strings.Repeat("HTTP/1.1 103 Early Hints\r\n\r\n", 12) + ok + "Content-Length: 0\r\n\r\n", 502, false},
		{"unasked_101", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n" + leak, 502, false},
		{"smuggled_after_length", ok + "Content-Length: 2\r\n\r\nok" + leak, 200, false},
		{"smuggled_after_chunked", ok + "Transfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n" + leak, 200, false},
		{"body_on_204", "HTTP/1.1 204 No Content\r\nContent-Length: 6\r\n\r\nLEAKED", 204, false},
		{"body_on_304", "HTTP/1.1 304 Not Modified\r\n\r\n" + leak, 304, false},
		{"invalid_chunk_size", ok + "Transfer-Encoding: chunked\r\n\r\n2\r\nok\r\nzz\r\n" + leak, 200, true},
		{"chunk_data_overrun", ok + "Transfer-Encoding: chunked\r\n\r\n2\r\nokXX\r\n0\r\n\r\n" + leak, 200, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &reverseproxy.Proxy{Upstreams: []string{hostileUpstream(t, tc.bad)}, HealthPenalty: -1}
			p.Client.MaxConnsPerHost = 1
			t.Cleanup(p.CloseIdleConnections)
			addr := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: p.Serve}))
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			br := bufio.NewReader(c)
			io.WriteString(c, "GET /bad HTTP/1.1\r\nHost: x\r\n\r\n")
			resp, err := readFinal(br)
			if err != nil {
				t.Fatalf("/bad: %v", err)
			}
			body, berr := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || strings.Contains(string(body), "LEAKED") {
				t.Errorf("/bad: %d %q, want %d", resp.StatusCode, body, tc.status)
			}
			if cut := errors.Is(berr, io.ErrUnexpectedEOF); cut != tc.cut {
				t.Errorf("/bad: body ended with %v, cut short %v, want %v", berr, cut, tc.cut)
			}
			if !tc.cut && !resp.Close {
				getGood(t, c, br, "same")
			}
			c2, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close()
			c2.SetDeadline(time.Now().Add(10 * time.Second))
			getGood(t, c2, bufio.NewReader(c2), "other")
		})
	}
}

// getGood asks for /good?id=id on c and checks the answer is its own.
func getGood(t *testing.T, c net.Conn, br *bufio.Reader, id string) {
	t.Helper()
	fmt.Fprintf(c, "GET /good?id=%s HTTP/1.1\r\nHost: x\r\n\r\n", id)
	resp, err := readFinal(br)
	if err != nil {
		t.Fatalf("/good on the %s connection: %v", id, err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 || string(body) != "good:"+id {
		t.Errorf("/good on the %s connection: %d %q (%v)", id, resp.StatusCode, body, err)
	}
}

// readFinal reads responses up to the first final one (skipping 1xx
// interim responses, which the proxy relays).
func readFinal(br *bufio.Reader) (*http.Response, error) {
	for {
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode >= 200 || resp.StatusCode == 101 {
			return resp, err
		}
	}
}

// TestHostileUpstreamConcurrent: with clients in parallel and an upstream
// that smuggles an extra response with every third one (in the same
// write, so that it is buffered behind the response when the proxy reads
// it) and answers some requests (ids ending "-5") after the proxy gave up
// on them (ResponseHeaderTimeout), every client gets its own answer or a
// 504, in order: the smuggled bytes and a late answer are never delivered
// (their connections are closed, not reused). A response sent unasked
// later, after the probe before reuse, cannot be told from the answer to
// the next request over HTTP/1.1 keep-alive: see Proxy.Client.
func TestHostileUpstreamConcurrent(t *testing.T) {
	ln := testserver.Listen(t)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				br := bufio.NewReader(c)
				for n := 0; ; n++ {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					id := req.URL.Query().Get("id")
					if strings.HasSuffix(id, "-5") {
						time.Sleep(300 * time.Millisecond) // the proxy gives up at 100 ms
					}
					body := "good:" + id
					resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
					if n%3 == 2 {
						resp += leak // in the same write: buffered with the response
					}
					io.WriteString(c, resp)
				}
			}()
		}
	}()
	p := &reverseproxy.Proxy{Upstreams: []string{"http://" + ln.Addr().String()}, HealthPenalty: -1,
		ResponseHeaderTimeout: 100 * time.Millisecond, MaxRetries: -1}
	p.Client.MaxConnsPerHost = 16
	t.Cleanup(p.CloseIdleConnections)
	addr := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: p.Serve}))
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			errs <- hostileClient(addr, g)
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// hostileClient sends 40 requests on one connection, each checked as
// TestHostileUpstreamConcurrent says.
func hostileClient(addr string, g int) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReader(c)
	for i := range 40 {
		id := fmt.Sprintf("%d-%d", g, i)
		fmt.Fprintf(c, "GET /?id=%s HTTP/1.1\r\nHost: x\r\n\r\n", id)
		resp, err := readFinal(br)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		switch {
		case err != nil:
			return fmt.Errorf("request %s: %v", id, err)
		case resp.StatusCode == 504: // "-5" always; others when the loaded machine is slow
		case resp.StatusCode == 200 && string(body) == "good:"+id:
		default:
			return fmt.Errorf("request %s: %d %q", id, resp.StatusCode, body)
		}
	}
	return nil
}

// TestHostileUpstreamUnasked: a response an upstream sends on an idle
// keep-alive connection, unasked, is never taken for the answer to a
// later request (the probe before every reuse sees it and the
// connection is closed), whether that request is resendable (GET) or
// not (POST).
func TestHostileUpstreamUnasked(t *testing.T) {
	ln := testserver.Listen(t)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					body := "good:" + req.URL.Query().Get("id")
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
					time.Sleep(5 * time.Millisecond)
					io.WriteString(c, leak)
				}
			}()
		}
	}()
	p := &reverseproxy.Proxy{Upstreams: []string{"http://" + ln.Addr().String()}, HealthPenalty: -1}
	p.Client.MaxConnsPerHost = 1
	t.Cleanup(p.CloseIdleConnections)
	addr := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: p.Serve}))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	for i, method := range []string{"GET", "GET", "POST", "GET"} {
		time.Sleep(30 * time.Millisecond) // the unasked response has arrived
		id := fmt.Sprint(i)
		fmt.Fprintf(c, "%s /?id=%s HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", method, id)
		resp, err := readFinal(br)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 || string(body) != "good:"+id {
			t.Errorf("%s %d: %d %q (%v)", method, i, resp.StatusCode, body, err)
		}
	}
}
