package proxy

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"github.com/brisk-http/brisk/tests/conformance"
)

const corpusPath = "../conformance/testdata/requests.jsonl"

// outcome is what one case got from one server.
type outcome struct {
	obs conformance.Observation
	s   conformance.Stream
}

// statuses returns the final status codes.
func (o *outcome) statuses() []int {
	var st []int
	for _, r := range o.s.Finals {
		st = append(st, r.Status)
	}
	return st
}

// exchangeAll sends every case to addr, 8 at a time, and parses the
// answers.
func exchangeAll(cases []*conformance.Case, addr string, split bool) []outcome {
	out := make([]outcome, len(cases))
	o := conformance.DefaultOptions(split)
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				obs := conformance.Exchange(cases[i], addr, o)
				out[i] = outcome{obs, conformance.ParseStream(obs.Data, conformance.RequestMethods(cases[i].Input()))}
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func loadCases(t *testing.T) []*conformance.Case {
	t.Helper()
	if testing.Short() {
		t.Skip("the corpus through the proxy takes ~30 s; skipped in -short mode")
	}
	cases, err := conformance.LoadCases(corpusPath)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// hasConnect reports a case with a CONNECT request, which the proxy
// refuses (405) where brisk's echo server accepts it.
func hasConnect(c *conformance.Case) bool {
	return slices.Contains(conformance.RequestMethods(c.Input()), "CONNECT")
}

// TestCorpusThroughProxy runs the corpus against brisk's echo server
// directly and through the proxy in front of it, whole and split, and
// compares: the same final status codes (405 for CONNECT), the connection
// closed where brisk closes it, and for each request accepted, the same
// method, body and framing at the backend, with every end-to-end field.
func TestCorpusThroughProxy(t *testing.T) {
	cases := loadCases(t)
	direct := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: echo.Handle}))
	backend := testserver.Start(t, testserver.Quiet(&brisk.Server{Handler: echo.Handle}))
	proxied := startProxy(t, "http://"+backend)
	for _, split := range []bool{false, true} {
		t.Run(map[bool]string{false: "whole", true: "split"}[split], func(t *testing.T) {
			want := exchangeAll(cases, direct, split)
			got := exchangeAll(cases, proxied, split)
			failed := 0
			for i, c := range cases {
				if p := compare(c, &want[i], &got[i]); len(p) > 0 {
					failed++
					t.Errorf("%s: %s", c.ID, strings.Join(p, "; "))
				}
			}
			t.Logf("%d cases, %d differ from brisk's own answers", len(cases), failed)
		})
	}
}

// compare lists how the proxied outcome departs from the direct one.
func compare(c *conformance.Case, want, got *outcome) []string {
	var p []string
	ws, gs := want.statuses(), got.statuses()
	if hasConnect(c) {
		if len(gs) == 0 || gs[0] != 405 {
			p = append(p, fmt.Sprintf("CONNECT answered %v, want 405", gs))
		}
		return p
	}
	if !slices.Equal(ws, gs) {
		return append(p, fmt.Sprintf("statuses %v through the proxy, %v direct", gs, ws))
	}
	if want.obs.Closed && !got.obs.Closed {
		p = append(p, "brisk closes the connection, the proxy left it open")
	}
	methods := conformance.RequestMethods(c.Input())
	for i := range want.s.Finals {
		if ws[i] != 200 || i < len(methods) && methods[i] == "HEAD" {
			continue
		}
		p = append(p, compareEcho(i, want.s.Finals[i].Body, got.s.Finals[i].Body)...)
	}
	return p
}

// echoed is the echo document, decoded.
type echoed struct {
	Method, URI, Version string
	Body                 []byte
	Header               [][2]string
}

func decodeEcho(body []byte) (*echoed, error) {
	var w struct {
		Headers [][]string `json:"headers"`
		Body    string     `json:"body"`
		Method  string     `json:"method"`
		Version string     `json:"version"`
		URI     string     `json:"uri"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	d := func(s string) string { b, _ := base64.StdEncoding.DecodeString(s); return string(b) }
	e := &echoed{Method: d(w.Method), URI: d(w.URI), Version: d(w.Version), Body: []byte(d(w.Body))}
	for _, h := range w.Headers {
		if len(h) == 2 {
			e.Header = append(e.Header, [2]string{d(h[0]), d(h[1])})
		}
	}
	return e, nil
}

// notPassedOn are the fields a proxy changes by design: hop-by-hop ones
// (RFC 9110 §7.6.1), the framing it decides again, and the forwarding
// fields it adds to.
var notPassedOn = []string{"connection", "keep-alive", "te", "transfer-encoding", "upgrade",
	"proxy-connection", "proxy-authorization", "content-length", "host", "x-forwarded-for",
	"x-forwarded-proto", "x-forwarded-host", "forwarded", "via"}

func compareEcho(i int, wantBody, gotBody []byte) []string {
	w, err1 := decodeEcho(wantBody)
	g, err2 := decodeEcho(gotBody)
	if err1 != nil || err2 != nil {
		return []string{fmt.Sprintf("response #%d: echo %v / %v", i+1, err1, err2)}
	}
	var p []string
	if w.Method != g.Method || string(w.Body) != string(g.Body) {
		p = append(p, fmt.Sprintf("response #%d: backend got %s %q, brisk read %s %q", i+1, g.Method, g.Body, w.Method, w.Body))
	}
	if _, ok := field(w.Header, "content-length"); ok && len(w.Body) > 0 {
		if gotLen, _ := field(g.Header, "content-length"); gotLen != strconv.Itoa(len(w.Body)) {
			p = append(p, fmt.Sprintf("response #%d: Content-Length %q at the backend for a body of %d bytes", i+1, gotLen, len(w.Body)))
		}
	}
	if te, _ := field(w.Header, "transfer-encoding"); te != "" {
		if gotTE, _ := field(g.Header, "transfer-encoding"); gotTE != "chunked" {
			p = append(p, fmt.Sprintf("response #%d: chunked request reached the backend with Transfer-Encoding %q", i+1, gotTE))
		}
	}
	connNamed, _ := field(w.Header, "connection")
	for _, f := range w.Header {
		name := strings.ToLower(f[0])
		if slices.Contains(notPassedOn, name) || strings.Contains(strings.ToLower(connNamed), name) {
			continue
		}
		if !slices.Contains(g.Header, f) {
			p = append(p, fmt.Sprintf("response #%d: field %q did not reach the backend", i+1, f))
		}
	}
	return p
}

// field returns the first value of the named field.
func field(h [][2]string, name string) (string, bool) {
	for _, f := range h {
		if strings.EqualFold(f[0], name) {
			return f[1], true
		}
	}
	return "", false
}
