package proxy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
	"github.com/brisk-http/brisk/internal/testsupport/freeport"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/tests/conformance"
)

// recorded is a request as net/http's parser read it from the bytes the
// proxy sent upstream.
type recorded struct {
	method string
	body   string
	err    error // the bytes did not parse, or the body broke
}

// recorder is a raw TCP backend that parses what it receives with
// net/http's ReadRequest (a parser other than brisk's) and answers each
// request 200 with an empty body.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
	ln   net.Listener
}

func startRecorder(t *testing.T) *recorder {
	r := &recorder{ln: testserver.Listen(t)}
	go func() {
		for {
			c, err := r.ln.Accept()
			if err != nil {
				return
			}
			go r.serve(c)
		}
	}()
	return r
}

func (r *recorder) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.add(recorded{err: fmt.Errorf("parse: %w", err)})
			}
			return
		}
		if strings.EqualFold(req.Header.Get("Expect"), "100-continue") {
			io.WriteString(c, "HTTP/1.1 100 Continue\r\n\r\n")
		}
		body, err := io.ReadAll(req.Body)
		r.add(recorded{method: req.Method, body: string(body), err: err})
		if err != nil {
			return
		}
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
	}
}

func (r *recorder) add(x recorded) {
	r.mu.Lock()
	r.reqs = append(r.reqs, x)
	r.mu.Unlock()
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}

// TestCorpusBackendBytes runs each case through its own proxy in front of
// a recorder: the requests brisk accepted reach the backend as exactly as
// many requests, each of which net/http parses to the method and body
// brisk read; nothing else arrives (no leftover, no smuggled request).
func TestCorpusBackendBytes(t *testing.T) {
	cases := loadCases(t)
	direct := exchangeAll(cases, testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: echo.Handle})), false)
	recs := make([]*recorder, len(cases))
	got := make([]outcome, len(cases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, c := range cases {
		recs[i] = startRecorder(t)
		addr := startProxy(t, "http://"+recs[i].ln.Addr().String())
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			obs := conformance.Exchange(c, addr, conformance.DefaultOptions(false))
			got[i] = outcome{obs, conformance.ParseStream(obs.Data, conformance.RequestMethods(c.Input()))}
		})
	}
	wg.Wait()
	for i, c := range cases {
		if hasConnect(c) {
			continue
		}
		if p := compareBytes(c, &direct[i], &got[i], recs[i].requests()); len(p) > 0 {
			t.Errorf("%s: %s", c.ID, strings.Join(p, "; "))
		}
	}
}

func compareBytes(c *conformance.Case, want, got *outcome, reqs []recorded) []string {
	var p []string
	ws, gs := want.statuses(), got.statuses()
	if !slices.Equal(ws, gs) {
		p = append(p, fmt.Sprintf("statuses %v through the proxy, %v direct", gs, ws))
	}
	methods := conformance.RequestMethods(c.Input())
	var accepted []int
	for i, st := range ws {
		if st == 200 {
			accepted = append(accepted, i)
		}
	}
	if len(reqs) != len(accepted) {
		return append(p, fmt.Sprintf("the backend parsed %d requests, brisk accepted %d", len(reqs), len(accepted)))
	}
	for k, i := range accepted {
		r := reqs[k]
		if r.err != nil {
			p = append(p, fmt.Sprintf("request #%d at the backend: %v", i+1, r.err))
			continue
		}
		if i < len(methods) && methods[i] == "HEAD" {
			if r.method != "HEAD" {
				p = append(p, fmt.Sprintf("request #%d: backend got %s, want HEAD", i+1, r.method))
			}
			continue
		}
		e, err := decodeEcho(want.s.Finals[i].Body)
		if err != nil {
			p = append(p, fmt.Sprintf("request #%d: direct echo: %v", i+1, err))
			continue
		}
		if r.method != e.Method || r.body != string(e.Body) {
			p = append(p, fmt.Sprintf("request #%d: backend parsed %s %q, brisk read %s %q", i+1, r.method, r.body, e.Method, e.Body))
		}
	}
	return p
}

// TestCorpusRealBackends runs the corpus through the proxy in front of
// net/http and nginx: every request brisk rejects is rejected at the proxy
// with brisk's status whatever the backend, and the requests brisk
// accepts are accepted by the backend (allowed lists the exceptions with
// their reason).
func TestCorpusRealBackends(t *testing.T) {
	cases := loadCases(t)
	direct := exchangeAll(cases, testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: echo.Handle})), false)
	backends := map[string]func(t *testing.T) string{
		"net_http": func(t *testing.T) string {
			ln := testserver.Listen(t)
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				io.WriteString(w, "ok")
			}), ErrorLog: nil}
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })
			return "http://" + ln.Addr().String()
		},
		"nginx": func(t *testing.T) string {
			addr := freeport.Addr(t)
			startNginx(t, addr, fmt.Sprintf(`server {
		listen %s;
		keepalive_requests 100000;
		location / { return 200 "ok"; }
	}`, addr))
			return "http://" + addr
		},
	}
	for _, name := range []string{"net_http", "nginx"} {
		t.Run(name, func(t *testing.T) {
			got := exchangeAll(cases, startProxy(t, backends[name](t)), false)
			for i, c := range cases {
				if hasConnect(c) {
					continue
				}
				ws, gs := direct[i].statuses(), got[i].statuses()
				if slices.Equal(ws, gs) {
					continue
				}
				if why, ok := allowed[name+"/"+c.ID]; ok {
					t.Logf("%s: %v through the proxy, %v direct: %s", c.ID, gs, ws, why)
					continue
				}
				t.Errorf("%s: statuses %v through the proxy, %v direct", c.ID, gs, ws)
			}
		})
	}
}

// allowed are the cases where a backend answers a request brisk accepted
// with an error of its own, by "backend/case id", with the reason.
var allowed = map[string]string{
	"net_http/ok-expect-unknown":  "Expect is end to end (RFC 9110 §10.1.1): net/http answers an unknown expectation 417, brisk ignores it; both are allowed",
	"nginx/ok-options-asterisk":   "nginx answers OPTIONS * with 400",
	"nginx/ok-pct-encoded-target": "nginx refuses %00 in the path with 400",
}
