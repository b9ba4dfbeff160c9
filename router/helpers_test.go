package router

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
)

// routeReply is what a router did with one request: the status code,
// and, when a pattern matched, the pattern and its wildcard values
// ("name=value" separated by "&"), else the Location and Allow fields.
type routeReply struct {
	status   int
	match    string // pattern "|" params
	location string
	allow    string
}

// routeSet is one set of patterns registered in a brisk Router and a
// net/http.ServeMux, each handler answering its pattern and parameters.
type routeSet struct {
	r        *Router
	mux      *http.ServeMux
	patterns []string // registered in both
	c        brisk.Ctx
}

// wildcardNames returns the names of the wildcards of a pattern, in order.
func wildcardNames(t testing.TB, pat string) []string {
	p, err := parsePattern(pat)
	if err != nil {
		t.Fatalf("wildcardNames(%q): %v", pat, err)
	}
	var names []string
	for _, s := range p.segs {
		if (s.kind == segWild || s.kind == segMulti) && s.s != "" {
			names = append(names, s.s)
		}
	}
	return names
}

// matchString formats a match the same way for both routers.
func matchString(pat string, names []string, value func(string) string) string {
	var b strings.Builder
	b.WriteString(pat)
	b.WriteByte('|')
	for i, n := range names {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(n + "=" + value(n))
	}
	return b.String()
}

// newRouteSet registers patterns in both routers. It fails the test when
// one accepts a pattern the other refuses.
func newRouteSet(t testing.TB, patterns []string) *routeSet {
	t.Helper()
	rs := &routeSet{r: New(), mux: http.NewServeMux()}
	for _, pat := range patterns {
		errB := rs.r.Register(pat, briskMatchHandler(t, pat))
		errN := registerNetHTTP(rs.mux, pat)
		if (errB == nil) != (errN == nil) {
			t.Fatalf("pattern %q: brisk %v, net/http %v", pat, errB, errN)
		}
		if errB == nil {
			rs.patterns = append(rs.patterns, pat)
		}
	}
	return rs
}

func briskMatchHandler(t testing.TB, pat string) brisk.Handler {
	names := wildcardNames(t, pat)
	return func(c *brisk.Ctx) {
		c.Response.SetBodyString(matchString(c.Pattern(), names, func(n string) string { return string(c.Param(n)) }))
	}
}

// registerNetHTTP registers pat in mux, returning its panic as an error.
func registerNetHTTP(mux *http.ServeMux, pat string) (err error) {
	defer func() {
		if e := recover(); e != nil {
			err, _ = e.(error)
			if err == nil {
				err = &PatternError{Pattern: pat, Reason: "panic"}
			}
		}
	}()
	var names []string
	if p, perr := parsePattern(pat); perr == nil {
		for _, s := range p.segs {
			if (s.kind == segWild || s.kind == segMulti) && s.s != "" {
				names = append(names, s.s)
			}
		}
	}
	mux.HandleFunc(pat, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(matchString(r.Pattern, names, r.PathValue)))
	})
	return nil
}

// serveBrisk routes one request with rs.r.
func (rs *routeSet) serveBrisk(method, host, target string) routeReply {
	return serveRoute(rs.r, &rs.c, method, host, target)
}

// serveRoute routes one request with r on c, cleared first as the server
// clears a Ctx between requests (the Router keeps no state in it but the
// pattern and parameters, which the server clears).
func serveRoute(r *Router, c *brisk.Ctx, method, host, target string) routeReply {
	*c = brisk.Ctx{}
	c.Request.SetMethod(method)
	c.Request.SetTarget(target)
	c.Request.SetHost(host)
	r.Serve(c)
	rep := routeReply{status: c.Response.StatusCode()}
	if rep.status == 200 {
		rep.match = string(c.Response.Body())
	} else {
		rep.location = string(c.Response.Header.Get("Location"))
		rep.allow = string(c.Response.Header.Get("Allow"))
	}
	return rep
}

// serveNetHTTP routes one request with rs.mux.
func (rs *routeSet) serveNetHTTP(method, host, target string) routeReply {
	req := httptest.NewRequest(method, target, nil)
	req.Host = host
	w := httptest.NewRecorder()
	rs.mux.ServeHTTP(w, req)
	rep := routeReply{status: w.Code}
	if rep.status == 200 {
		rep.match = w.Body.String()
	} else {
		rep.location = w.Header().Get("Location")
		rep.allow = w.Header().Get("Allow")
	}
	return rep
}

// readRouteFile reads a route table of testdata/routes ("METHOD /path"
// with ":name" parameters, one a line) as patterns with "{name}".
func readRouteFile(t testing.TB, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/routes/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pats []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			pats = append(pats, colonToBraces(line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return pats
}

// colonToBraces rewrites ":name" segments as "{name}".
func colonToBraces(route string) string {
	segs := strings.Split(route, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, ":") {
			segs[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(segs, "/")
}

// serveConn serves h on a connection of an in-memory listener and
// returns its client end; the server shuts down when the test ends.
func serveConn(t testing.TB, h brisk.Handler) net.Conn {
	t.Helper()
	srv := &brisk.Server{Handler: h}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	nc, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		nc.Close()
		srv.Shutdown(context.Background())
	})
	return nc
}

// roundTrip sends the raw request on nc and reads the response.
func roundTrip(t testing.TB, nc net.Conn, br *bufio.Reader, raw string) (*http.Response, string) {
	t.Helper()
	if _, err := io.WriteString(nc, raw); err != nil {
		t.Fatal(err)
	}
	method, _, _ := strings.Cut(raw, " ")
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// exchange sends req on nc and reads its response into buf, which must
// hold it; it returns the status code, 0 when the connection fails. It
// does not allocate: it reads the response's framing (a Content-Length,
// which the server sends for every buffered body) by hand.
func exchange(nc net.Conn, req, buf []byte) int {
	if _, err := nc.Write(req); err != nil {
		return 0
	}
	n := 0
	for {
		m, err := nc.Read(buf[n:])
		n += m
		if err != nil {
			return 0
		}
		end := bytes.Index(buf[:n], []byte("\r\n\r\n"))
		if end < 0 {
			continue
		}
		head, size := buf[:end], 0
		if i := bytes.Index(head, []byte("\r\nContent-Length: ")); i >= 0 {
			for _, d := range head[i+len("\r\nContent-Length: "):] {
				if d < '0' || d > '9' {
					break
				}
				size = 10*size + int(d-'0')
			}
		}
		if n >= end+4+size {
			return int(buf[9]-'0')*100 + int(buf[10]-'0')*10 + int(buf[11]-'0')
		}
	}
}
