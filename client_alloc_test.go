//go:build !race

package brisk

import (
	"strings"
	"testing"
)

// TestClientAllocsPerRequest: a keep-alive GET in steady state allocates
// nothing, client and server included (AllocsPerRun counts every
// goroutine).
func TestClientAllocsPerRequest(t *testing.T) {
	forClientTransports(t, func(t *testing.T, transport string) {
		cs := startClientServer(t, transport, helloHandler)
		var req Request
		var resp Response
		req.SetURI(cs.url + "/hello")
		do := func() {
			if err := cs.cl.Do(&req, &resp); err != nil || len(resp.Body()) != 13 {
				t.Fatalf("%v %q", err, resp.Body())
			}
		}
		wantNoAllocsPerRequest(t, do)
	})
}

// TestClientAllocsRequestShape: rebuilding a POST with fields and a body
// for every request allocates nothing either.
func TestClientAllocsRequestShape(t *testing.T) {
	cs := startClientServer(t, "tcp", helloHandler)
	var req Request
	var resp Response
	uri := cs.url + "/a/longer/path?with=query&and=more"
	do := func() {
		req.SetMethod("POST")
		req.SetURI(uri)
		req.Header.Reset()
		req.Header.Set("User-Agent", "brisk-test")
		req.Header.Set("Accept", "*/*")
		req.SetBodyString("some body bytes")
		if err := cs.cl.Do(&req, &resp); err != nil || len(resp.Body()) != 13 {
			t.Fatalf("%v %q", err, resp.Body())
		}
	}
	wantNoAllocsPerRequest(t, do)
}

// TestHostClientAllocsDefaultHost: a HostClient request with an
// origin-form target and no Host (Addr is sent as Host) allocates nothing.
func TestHostClientAllocsDefaultHost(t *testing.T) {
	cs := startClientServer(t, "tcp", helloHandler)
	hc := &HostClient{Addr: strings.TrimPrefix(cs.url, "http://")}
	t.Cleanup(hc.CloseIdleConnections)
	var req Request
	var resp Response
	req.SetTarget("/hello")
	do := func() {
		if err := hc.Do(&req, &resp); err != nil || len(resp.Body()) != 13 {
			t.Fatalf("%v %q", err, resp.Body())
		}
	}
	wantNoAllocsPerRequest(t, do)
}

// TestClientAllocsEncodedTarget: a request-target that must be
// percent-encoded (non-ASCII path and query) is encoded into the
// connection's storage: nothing allocated in steady state either.
func TestClientAllocsEncodedTarget(t *testing.T) {
	cs := startClientServer(t, "tcp", helloHandler)
	var req Request
	var resp Response
	req.SetURI(cs.url + "/caf\u00e9?q=\u00e9t\u00e9")
	do := func() {
		if err := cs.cl.Do(&req, &resp); err != nil || len(resp.Body()) != 13 {
			t.Fatalf("%v %q", err, resp.Body())
		}
	}
	wantNoAllocsPerRequest(t, do)
}

// wantNoAllocsPerRequest runs do 100 times to reach steady state (pooled
// connections and buffers grown), then fails t unless it allocates nothing.
func wantNoAllocsPerRequest(t *testing.T, do func()) {
	t.Helper()
	for range 100 {
		do()
	}
	if n := testing.AllocsPerRun(1000, do); n != 0 {
		t.Fatalf("%v allocations per request, want 0", n)
	}
}
