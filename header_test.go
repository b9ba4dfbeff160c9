package brisk

import (
	"slices"
	"strings"
	"testing"

	"github.com/brisk-http/brisk/wire"

	"github.com/brisk-http/brisk/internal/testsupport/fakenet"
)

func TestHeader(t *testing.T) {
	var h Header
	h.Add("Content-Type", "text/plain")
	h.Add("X-Multi", "1")
	h.AddBytes([]byte("x-multi"), []byte("2"))
	h.Add("Accept", "*/*")

	if got := string(h.Get("content-type")); got != "text/plain" {
		t.Errorf("Get case-insensitive: %q", got)
	}
	if h.Get("Missing") != nil || h.Has("Missing") || !h.Has("ACCEPT") {
		t.Errorf("Has/Get on absent or present field")
	}
	var vals []string
	for v := range h.Values("X-MULTI") {
		vals = append(vals, string(v))
	}
	if !slices.Equal(vals, []string{"1", "2"}) {
		t.Errorf("Values %q", vals)
	}
	var names []string
	for n := range h.All() {
		names = append(names, string(n))
	}
	if !slices.Equal(names, []string{"Content-Type", "X-Multi", "x-multi", "Accept"}) {
		t.Errorf("All order/case %q", names)
	}

	h.Set("x-multi", "3")
	if h.Len() != 3 || string(h.Get("X-Multi")) != "3" {
		t.Errorf("Set: len %d value %q", h.Len(), h.Get("X-Multi"))
	}
	h.Set("New", "n")
	h.Del("content-type")
	names = names[:0]
	for n, v := range h.All() {
		names = append(names, string(n)+"="+string(v))
	}
	if !slices.Equal(names, []string{"X-Multi=3", "Accept=*/*", "New=n"}) {
		t.Errorf("after Set/Del %q", names)
	}
	h.Reset()
	if h.Len() != 0 || h.Raw() != nil {
		t.Errorf("Reset")
	}
}

func TestHeaderReceived(t *testing.T) {
	raw := []byte("GET /a?b=c HTTP/1.1\r\nHost: example.org\r\nX-Id: 7\r\n\r\n")
	var p wire.Parser
	var r Request
	storage := make([]wire.Field, 8)
	r.head.Reset(storage)
	if _, err := p.ParseRequest(raw, &r.head); err != nil {
		t.Fatal(err)
	}
	r.resetReceived()
	if got := string(r.Header.Raw()); got != "Host: example.org\r\nX-Id: 7\r\n" {
		t.Errorf("Raw %q", got)
	}
	if string(r.Header.Get("x-id")) != "7" || string(r.Host()) != "example.org" {
		t.Errorf("fields")
	}
	if string(r.Method()) != "GET" || string(r.Path()) != "/a" || string(r.Query()) != "b=c" ||
		string(r.Target()) != "/a?b=c" || r.Proto() != "HTTP/1.1" || r.ContentLength() != 0 {
		t.Errorf("request line accessors")
	}
}

func TestRawPathForms(t *testing.T) {
	cases := []struct{ req, path, query string }{
		{"GET /p/q?x HTTP/1.1\r\nHost: h\r\n\r\n", "/p/q", "x"},
		{"GET http://h/abs/p?y=1 HTTP/1.1\r\nHost: h\r\n\r\n", "/abs/p", "y=1"},
		{"GET http://h HTTP/1.1\r\nHost: h\r\n\r\n", "/", ""},
		{"OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", "*", ""},
		{"CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n", "", ""},
	}
	for _, tc := range cases {
		var p wire.Parser
		var r Request
		r.head.Reset(make([]wire.Field, 4))
		if _, err := p.ParseRequest([]byte(tc.req), &r.head); err != nil {
			t.Fatalf("%q: %v", tc.req, err)
		}
		if string(r.RawPath()) != tc.path || string(r.Query()) != tc.query {
			t.Errorf("%q: path %q query %q", tc.req, r.RawPath(), r.Query())
		}
	}
}

func TestHeaderHasToken(t *testing.T) {
	cases := []struct {
		v    []string
		want bool
	}{
		{[]string{"close"}, true}, {[]string{"Close"}, true}, {[]string{"keep-alive, close"}, true},
		{[]string{" close ,x"}, true}, {[]string{"keep-alive", "x, CLOSE"}, true},
		{[]string{"closed"}, false}, {[]string{""}, false}, {[]string{"keep-alive"}, false}, {nil, false},
	}
	for _, tc := range cases {
		var h Header
		for _, v := range tc.v {
			h.Add("Connection", v)
		}
		if got := h.HasToken("Connection", "close"); got != tc.want {
			t.Errorf("HasToken over %q = %v", tc.v, got)
		}
	}
}

func TestFakeConnResponses(t *testing.T) {
	for _, perRead := range []int{1, 16} {
		ln := fakenet.NewListener()
		s := &Server{Handler: helloHandler}
		go s.Serve(ln)
		req := fixture(t, "tfb.http")
		c := fakenet.NewConn(fakenet.Batch(req, perRead), len(req), 32)
		ln.Push(c)
		<-c.Done()
		s.Shutdown(t.Context())
		one := "HTTP/1.1 200 OK\r\nDate: " + strings.Repeat("x", dateLen) +
			"\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"
		if c.Written() != 32*len(one) {
			t.Errorf("perRead %d: wrote %d bytes in %d writes, want %d", perRead, c.Written(), c.Writes(), 32*len(one))
		}
		if want := 32 / perRead; c.Writes() != want {
			t.Errorf("perRead %d: %d writes, want %d (batched)", perRead, c.Writes(), want)
		}
	}
}
