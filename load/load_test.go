package load

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// run runs c and fails the test on a configuration error.
func run(t *testing.T, c Config) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := Run(ctx, c, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// noErrors fails unless every error count of res is zero.
func noErrors(t *testing.T, res *Result) {
	t.Helper()
	for k := range kindCount {
		if res.Errors[k] != 0 {
			t.Errorf("%s errors = %d, want 0", k, res.Errors[k])
		}
	}
}

func TestRequestCount(t *testing.T) {
	for _, tc := range []struct {
		name        string
		connections int
		pipeline    int
		requests    int64
	}{
		{"one_conn", 1, 1, 100},
		{"conns_not_dividing_n", 7, 1, 1000},
		{"more_conns_than_requests", 16, 1, 5},
		{"pipelined", 3, 16, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := startRaw(t, plain)
			res := run(t, Config{URL: srv.url(), Connections: tc.connections, Pipeline: tc.pipeline, Requests: tc.requests})
			noErrors(t, res)
			if res.Requests != tc.requests || res.Status[2] != tc.requests || srv.served.Load() != tc.requests {
				t.Errorf("requests = %d, 2xx = %d, served = %d; want %d", res.Requests, res.Status[2], srv.served.Load(), tc.requests)
			}
			if got := res.Latency.TotalCount(); got != tc.requests {
				t.Errorf("latency count = %d, want %d", got, tc.requests)
			}
			if res.Bytes != srv.written.Load() {
				t.Errorf("bytes = %d, server wrote %d", res.Bytes, srv.written.Load())
			}
		})
	}
}

// TestPipelineFraming checks that pipelined responses of every framing
// (Content-Length, chunked with extensions and trailers, no body), arriving
// split at varying points, are each matched to one request: every byte the
// server wrote is consumed and no response is lost or parsed twice.
func TestPipelineFraming(t *testing.T) {
	for _, depth := range []int{1, 4, 16} {
		t.Run("depth_"+itoa(depth), func(t *testing.T) {
			srv := startRaw(t, mixed)
			const n = 600
			res := run(t, Config{URL: srv.url(), Connections: 2, Pipeline: depth, Requests: n})
			noErrors(t, res)
			if res.Requests != n || srv.served.Load() != n {
				t.Errorf("requests = %d, served = %d, want %d", res.Requests, srv.served.Load(), n)
			}
			if res.Bytes != srv.written.Load() {
				t.Errorf("bytes = %d, server wrote %d", res.Bytes, srv.written.Load())
			}
		})
	}
}

// TestServerClose checks that requests cut off by "Connection: close" are
// sent again on a new connection, not counted as failures.
func TestServerClose(t *testing.T) {
	srv := startRaw(t, func(i int64) ([]byte, bool) {
		if i%3 == 2 {
			return []byte("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"), true
		}
		return plain(i)
	})
	const n = 200
	res := run(t, Config{URL: srv.url(), Connections: 2, Pipeline: 4, Requests: n})
	noErrors(t, res)
	if res.Requests != n {
		t.Errorf("requests = %d, want %d", res.Requests, n)
	}
}

func TestCloseDelimited(t *testing.T) {
	srv := startRaw(t, func(int64) ([]byte, bool) {
		return []byte("HTTP/1.1 200 OK\r\n\r\nbody until close"), true
	})
	res := run(t, Config{URL: srv.url(), Connections: 2, Requests: 20})
	noErrors(t, res)
	if res.Requests != 20 {
		t.Errorf("requests = %d, want 20", res.Requests)
	}
}

func TestNon2xx(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	res := run(t, Config{URL: srv.URL, Connections: 2, Requests: 50})
	if res.Requests != 50 || res.Status[5] != 50 || res.Errors[KindStatus] != 50 {
		t.Errorf("requests = %d, 5xx = %d, status errors = %d; want 50 each", res.Requests, res.Status[5], res.Errors[KindStatus])
	}
}

func TestTimeout(t *testing.T) {
	srv := startRaw(t, plain)
	srv.stall = func(int64) time.Duration { return time.Second } // every response is late
	res := run(t, Config{URL: srv.url(), Connections: 1, Requests: 3, Timeout: 50 * time.Millisecond})
	if res.Errors[KindTimeout] != 3 || res.Requests != 0 {
		t.Errorf("timeouts = %d, requests = %d; want 3, 0", res.Errors[KindTimeout], res.Requests)
	}
}

// TestConnectError: when nothing listens, Run returns a *ConnectError
// naming the address and the cause at once, and runs nothing.
func TestConnectError(t *testing.T) {
	srv := startRaw(t, plain)
	url := srv.url()
	addr := srv.ln.Addr().String()
	srv.ln.Close()
	start := time.Now()
	res, err := Run(context.Background(), Config{URL: url, Connections: 2, Duration: 10 * time.Second}, nil)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Addr != addr || !errors.Is(err, syscall.ECONNREFUSED) || res != nil {
		t.Fatalf("Run = %v, %v; want a *ConnectError for %s wrapping ECONNREFUSED", res, err, addr)
	}
	if want := "load: cannot connect to " + addr + ": connection refused"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Run took %v, want it to return at once", d)
	}
}

// TestConnectErrorMidRun: when the server goes away after the first
// connection, failed connects are counted and the first one's cause is in
// the result and both reports.
func TestConnectErrorMidRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	go func() { // accept Run's first connection, then stop listening
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
		ln.Close()
	}()
	res := run(t, Config{URL: "http://" + addr + "/", Connections: 2, Duration: 300 * time.Millisecond})
	// A connect after the listener closed is refused; one that reached its
	// backlog as it closed is reset.
	if res.Errors[KindConnect] == 0 || res.Requests != 0 || res.ConnectErr == nil ||
		!errors.Is(res.ConnectErr, syscall.ECONNREFUSED) && !errors.Is(res.ConnectErr, syscall.ECONNRESET) {
		t.Fatalf("connect errors %d, requests %d, ConnectErr %v; want some, 0, refused or reset", res.Errors[KindConnect], res.Requests, res.ConnectErr)
	}
	want := res.ConnectErr.Error()
	if cause := strings.TrimPrefix(want, "load: cannot connect to "+addr+": "); cause != "connection refused" && cause != "connection reset by peer" {
		t.Errorf("ConnectErr %q, want the address and the cause alone", want)
	}
	var text strings.Builder
	res.WriteText(&text)
	if !strings.Contains(text.String(), "\nfirst connect error: "+want+"\n") {
		t.Errorf("text report lacks the cause:\n%s", text.String())
	}
	if rep := res.Report(); rep.ConnectError != want {
		t.Errorf("JSON connect_error %q, want %q", rep.ConnectError, want)
	}
}

func TestParseError(t *testing.T) {
	srv := startRaw(t, func(int64) ([]byte, bool) {
		return []byte("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx"), false
	})
	res := run(t, Config{URL: srv.url(), Connections: 1, Requests: 3})
	if res.Errors[KindParse] != 3 || res.Requests != 0 {
		t.Errorf("parse errors = %d, requests = %d; want 3, 0", res.Errors[KindParse], res.Requests)
	}
}

func TestReadError(t *testing.T) {
	srv := startRaw(t, func(int64) ([]byte, bool) { return []byte("HTTP/1.1 200 OK\r\nContent-Le"), true })
	res := run(t, Config{URL: srv.url(), Connections: 1, Requests: 3})
	if res.Errors[KindRead] != 3 || res.Requests != 0 {
		t.Errorf("read errors = %d, requests = %d; want 3, 0", res.Errors[KindRead], res.Requests)
	}
}

// TestRequestShape checks method, headers, body, HTTP/1.0 and HEAD against
// net/http's parser.
func TestRequestShape(t *testing.T) {
	for _, tc := range []struct {
		name  string
		c     Config
		check func(r *http.Request, body string) bool
	}{
		{"get", Config{}, func(r *http.Request, body string) bool {
			return r.Method == "GET" && r.URL.RequestURI() == "/p?q=1" && r.ProtoMinor == 1 && body == ""
		}},
		{"post_body_headers", Config{Method: "POST", Body: []byte("hello"), Header: []string{"X-A: 1", "Host: example.test"}},
			func(r *http.Request, body string) bool {
				return r.Method == "POST" && body == "hello" && r.Header.Get("X-A") == "1" && r.Host == "example.test"
			}},
		{"http10", Config{HTTP10: true}, func(r *http.Request, body string) bool { return r.ProtoMinor == 0 }},
		{"head", Config{Method: "HEAD"}, func(r *http.Request, body string) bool { return r.Method == "HEAD" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var bad atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				if !tc.check(r, string(b)) {
					bad.Add(1)
				}
				w.Header().Set("Content-Length", "5")
				io.WriteString(w, "hello")
			}))
			defer srv.Close()
			c := tc.c
			c.URL, c.Connections, c.Requests = srv.URL+"/p?q=1", 2, 20
			res := run(t, c)
			noErrors(t, res)
			if res.Requests != 20 || bad.Load() != 0 {
				t.Errorf("requests = %d, mismatched = %d; want 20, 0", res.Requests, bad.Load())
			}
		})
	}
}

// TestRateCorrection: the server stalls once for 300 ms; in open loop at
// 1000 req/s on one connection the ~300 requests due during the stall
// queue behind it, and their latency, counted from their intended send
// times, shows it. Closed loop would record one slow request.
func TestRateCorrection(t *testing.T) {
	const stall = 300 * time.Millisecond
	srv := startRaw(t, plain)
	srv.stall = func(i int64) time.Duration {
		if i == 50 {
			return stall
		}
		return 0
	}
	res := run(t, Config{URL: srv.url(), Connections: 1, Requests: 500, Rate: 1000})
	noErrors(t, res)
	if res.Requests != 500 {
		t.Fatalf("requests = %d, want 500", res.Requests)
	}
	if got := res.Percentile(100); got < stall {
		t.Errorf("max latency = %v, want >= %v", got, stall)
	}
	// Requests due in the first half of the stall waited at least half of it.
	var n int64
	for _, b := range res.Latency.Distribution() {
		if b.From >= int64(stall/2/time.Microsecond) {
			n += b.Count
		}
	}
	if n < 100 {
		t.Errorf("%d responses slower than %v, want >= 100 (queueing behind the stall)", n, stall/2)
	}
}

func TestDuration(t *testing.T) {
	srv := startRaw(t, plain)
	res := run(t, Config{URL: srv.url(), Connections: 2, Duration: 200 * time.Millisecond})
	noErrors(t, res)
	if res.Requests == 0 || res.Elapsed < 200*time.Millisecond {
		t.Errorf("requests = %d, elapsed = %v; want > 0, >= 200ms", res.Requests, res.Elapsed)
	}
}

func TestCancel(t *testing.T) {
	srv := startRaw(t, plain)
	srv.stall = func(int64) time.Duration { return 20 * time.Millisecond }
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res, err := Run(ctx, Config{URL: srv.url(), Connections: 2, Duration: time.Hour}, nil)
	if err != nil || res.ErrorCount() != 0 {
		t.Errorf("err = %v, errors = %d; want nil, 0", err, res.ErrorCount())
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Config
		want error
	}{
		{"https", Config{URL: "https://x/"}, ErrURL},
		{"no_host", Config{URL: "http:///x"}, ErrURL},
		{"userinfo", Config{URL: "http://u:p@x/"}, ErrURL},
		{"bad_header_name", Config{URL: "http://x/", Header: []string{"Bad Name: v"}}, ErrHeaderLine},
		{"header_no_colon", Config{URL: "http://x/", Header: []string{"X"}}, ErrHeaderLine},
		{"header_crlf", Config{URL: "http://x/", Header: []string{"X: a\r\nY: b"}}, ErrHeaderLine},
		{"method", Config{URL: "http://x/", Method: "G T"}, ErrMethod},
		{"connections", Config{URL: "http://x/", Connections: -1}, ErrConnections},
		{"pipeline", Config{URL: "http://x/", Pipeline: -2}, ErrPipeline},
		{"rate", Config{URL: "http://x/", Rate: -1}, ErrRate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tc.c, nil); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestReport(t *testing.T) {
	srv := startRaw(t, plain)
	res := run(t, Config{URL: srv.url(), Connections: 2, Requests: 100})
	var js strings.Builder
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Requests  int64            `json:"requests"`
		Bytes     int64            `json:"bytes"`
		RPS       float64          `json:"requests_per_second"`
		Latency   map[string]any   `json:"latency_us"`
		Errors    map[string]int64 `json:"errors"`
		Status    map[string]int64 `json:"status"`
		Samples   []Sample         `json:"samples"`
		Pipeline  int              `json:"pipeline"`
		Conns     int              `json:"connections"`
		URLString string           `json:"url"`
	}
	if err := json.Unmarshal([]byte(js.String()), &got); err != nil {
		t.Fatalf("%v in %s", err, js.String())
	}
	if got.Requests != 100 || got.Status["2xx"] != 100 || got.RPS <= 0 || got.Conns != 2 || got.Pipeline != 1 || got.URLString != srv.url() || got.Samples == nil {
		t.Errorf("unexpected report %s", js.String())
	}
	for _, k := range []string{"min", "p50", "p90", "p99", "p99_9", "max", "mean", "stdev"} {
		if _, ok := got.Latency[k]; !ok {
			t.Errorf("latency_us.%s missing", k)
		}
	}
	for _, k := range []string{"connect", "read", "write", "timeout", "status", "parse"} {
		if v, ok := got.Errors[k]; !ok || v != 0 {
			t.Errorf("errors.%s = %d, %v; want 0, true", k, v, ok)
		}
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"│ Latency", "p99.9", "│ Req/Sec", "100 requests in", "status: 2xx 100"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}
