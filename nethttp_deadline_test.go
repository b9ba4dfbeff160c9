package brisk

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// deadlineResult is what a handler of the deadline tests observed.
type deadlineResult struct {
	writeErr, flushErr, readErr error
	took                        time.Duration
}

// timedOut describes err as the tests compare it: whether it is a
// deadline's timeout.
func timedOut(err error) string {
	switch {
	case err == nil:
		return "nil"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "timeout"
	}
	return "other: " + err.Error()
}

// TestFromHTTPWriteDeadline checks http.ResponseController's
// SetWriteDeadline against net/http's server: a deadline already passed
// fails the next write of a 10,000-byte response (and Flush) with a
// timeout, nothing of the response is sent and the connection closes; a
// deadline 200 ms ahead fails a write to a client that reads nothing
// then, instead of blocking.
func TestFromHTTPWriteDeadline(t *testing.T) {
	serve := func(t *testing.T, results chan<- deadlineResult, write func(http.ResponseWriter, *http.ResponseController, *deadlineResult)) (netHTTP, brisk func() (net.Conn, error)) {
		return diffServers(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var res deadlineResult
			start := time.Now()
			write(w, http.NewResponseController(w), &res)
			res.took = time.Since(start)
			results <- res
		}), nil)
	}
	t.Run("past", func(t *testing.T) {
		results := make(chan deadlineResult, 1)
		netHTTP, brisk := serve(t, results, func(w http.ResponseWriter, rc *http.ResponseController, res *deadlineResult) {
			rc.SetWriteDeadline(time.Now().Add(-time.Second))
			_, res.writeErr = w.Write([]byte(strings.Repeat("x", 10000)))
			res.flushErr = rc.Flush()
		})
		raw := "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
		want := rawUntilClose(t, netHTTP, raw)
		wantRes := <-results
		got := rawUntilClose(t, brisk, raw)
		gotRes := <-results
		if got != want {
			t.Errorf("brisk sent %.200q, net/http %.200q", got, want)
		}
		for _, e := range [][2]error{{gotRes.writeErr, wantRes.writeErr}, {gotRes.flushErr, wantRes.flushErr}} {
			if timedOut(e[0]) != timedOut(e[1]) {
				t.Errorf("Write, Flush: brisk %v, %v; net/http %v, %v", gotRes.writeErr, gotRes.flushErr, wantRes.writeErr, wantRes.flushErr)
				break
			}
		}
	})
	t.Run("ahead", func(t *testing.T) {
		results := make(chan deadlineResult, 1)
		netHTTP, brisk := serve(t, results, func(w http.ResponseWriter, rc *http.ResponseController, res *deadlineResult) {
			rc.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
			chunk := []byte(strings.Repeat("y", 64<<10))
			for i := 0; i < 1<<12 && res.writeErr == nil; i++ { // 256 MiB at most
				_, res.writeErr = w.Write(chunk)
			}
		})
		for i, dial := range []func() (net.Conn, error){netHTTP, brisk} {
			nc, err := dial()
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(nc, get("/")) // and read nothing
			var res deadlineResult
			select {
			case res = <-results:
			case <-time.After(10 * time.Second):
				t.Fatalf("server %d: the write did not fail by its deadline", i)
			}
			nc.Close()
			if timedOut(res.writeErr) != "timeout" || res.took > 5*time.Second {
				t.Errorf("server %d: write error %v after %v, want a timeout after about 200ms", i, res.writeErr, res.took)
			}
		}
	})
}

// TestFromHTTPReadDeadline checks http.ResponseController's
// SetReadDeadline against net/http's server: a body read waiting for
// bytes the client does not send fails with a timeout 150 ms on, and
// the response closes the connection.
func TestFromHTTPReadDeadline(t *testing.T) {
	results := make(chan deadlineResult, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var res deadlineResult
		start := time.Now()
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(150 * time.Millisecond))
		b, err := io.ReadAll(r.Body)
		res.readErr, res.took = err, time.Since(start)
		results <- res
		fmt.Fprintf(w, "read %q %s", b, timedOut(err))
	})
	netHTTP, brisk := diffServers(t, h, nil)
	raw := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhi"
	var want string
	for i, dial := range []func() (net.Conn, error){netHTTP, brisk} {
		nc, err := dial()
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(nc, raw) // and never the rest of the body
		var res deadlineResult
		select {
		case res = <-results:
		case <-time.After(10 * time.Second):
			t.Fatal("the read did not fail by its deadline")
		}
		if timedOut(res.readErr) != "timeout" || res.took > 5*time.Second {
			t.Errorf("read error %v after %v, want a timeout after about 150ms", res.readErr, res.took)
		}
		nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		b, _ := io.ReadAll(nc)
		nc.Close()
		if i == 0 {
			want = noDate(string(b))
		} else if got := noDate(string(b)); got != want {
			t.Errorf("brisk sent %q, net/http %q", got, want)
		}
	}
}

// TestFromHTTPDeadlinesReset checks that the deadlines a handler sets
// end with its request, on net/http's server and through FromHTTP: the
// next request on the connection, sent after they passed, has its body
// read and its response written.
func TestFromHTTPDeadlinesReset(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/set" {
			rc := http.NewResponseController(w)
			rc.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			rc.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
		}
		b, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s read %q %v", r.URL.Path, b, err)
	})
	netHTTP, brisk := diffServers(t, h, nil)
	var want string
	for i, dial := range []func() (net.Conn, error){netHTTP, brisk} {
		c := &client{t: t}
		nc, err := dial()
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		c.nc, c.br = nc, bufio.NewReader(nc)
		_, first := c.roundTrip("POST /set HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
		time.Sleep(200 * time.Millisecond)
		c.sendSync("POST /next HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
		time.Sleep(200 * time.Millisecond)
		c.sendSync("cd")
		_, next := c.read("POST")
		got := first + " | " + next
		if i == 0 {
			want = got
			if want != `/set read "hi" <nil> | /next read "abcd" <nil>` {
				t.Fatalf("net/http: %s", want)
			}
		} else if got != want {
			t.Errorf("brisk: %s, net/http: %s", got, want)
		}
	}
}

// TestFromHTTPReadDeadlineExtends checks that the handler's read
// deadline replaces Server.ReadTimeout, as on net/http: a body that
// arrives after ReadTimeout but before the handler's deadline is read.
func TestFromHTTPReadDeadlineExtends(t *testing.T) {
	ts := startServer(t, "tcp", &Server{ReadTimeout: 100 * time.Millisecond, Handler: FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(5 * time.Second))
		b, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "read %q %v", b, err)
	}))})
	c := ts.connect()
	c.sendSync("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
	time.Sleep(300 * time.Millisecond)
	c.sendSync("cd")
	if _, body := c.read("POST"); body != `read "abcd" <nil>` {
		t.Errorf("got %q", body)
	}
	c.expectOpen()
}
