package brisk

import (
	"errors"
	"strings"
	"testing"
)

// TestClientTarget: the authority (what Client dials) comes from the URI
// and the Host field from SetHost; without a URI authority the Host field
// is the authority, else the fallback (HostClient's Addr).
func TestClientTarget(t *testing.T) {
	cases := []struct {
		name                 string
		uri, target, host    string // uri: SetURI; else target: SetTarget
		fallback             string
		authority, hostField string
		origin               string
		wantErr              error
	}{
		{name: "uri", uri: "http://127.0.0.1:8081/x", authority: "127.0.0.1:8081", hostField: "127.0.0.1:8081", origin: "/x"},
		{name: "uri_then_sethost", uri: "http://127.0.0.1:8081/x", host: "virtual.example", authority: "127.0.0.1:8081", hostField: "virtual.example", origin: "/x"},
		{name: "uri_then_sethost_fallback_unused", uri: "http://a.example/x", host: "v.example", fallback: "addr:1", authority: "a.example", hostField: "v.example", origin: "/x"},
		{name: "origin_form_sethost", target: "/y", host: "virtual.example", authority: "virtual.example", hostField: "virtual.example", origin: "/y"},
		{name: "origin_form_sethost_with_fallback", target: "/y", host: "virtual.example", fallback: "127.0.0.1:8081", authority: "virtual.example", hostField: "virtual.example", origin: "/y"},
		{name: "origin_form_fallback", target: "/y", fallback: "127.0.0.1:8081", authority: "127.0.0.1:8081", hostField: "127.0.0.1:8081", origin: "/y"},
		{name: "origin_form_no_host", target: "/y", wantErr: ErrInvalidURI},
		{name: "bad_uri", uri: "ftp://x/y", host: "v.example", wantErr: ErrInvalidURI},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var req Request
			if tc.uri != "" {
				req.SetURI(tc.uri)
			} else {
				req.SetTarget(tc.target)
			}
			if tc.host != "" {
				req.SetHost(tc.host)
			}
			var fb []byte
			if tc.fallback != "" {
				fb = []byte(tc.fallback)
			}
			got, err := req.clientTarget(fb)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || string(got.authority) != tc.authority || string(got.host) != tc.hostField || string(got.origin) != tc.origin {
				t.Fatalf("got authority %q host %q origin %q (%v); want %q %q %q",
					got.authority, got.host, got.origin, err, tc.authority, tc.hostField, tc.origin)
			}
		})
	}
}

// TestClientSetHostAfterSetURI: SetHost after SetURI replaces the Host
// field only: the request reaches the URI's server, with that Host.
func TestClientSetHostAfterSetURI(t *testing.T) {
	cs := startClientServer(t, "tcp", routes)
	for _, host := range []string{"virtual.example", "localhost:8082", "example.invalid"} {
		t.Run(host, func(t *testing.T) {
			var req Request
			var resp Response
			req.SetURI(cs.url + "/echo?q=1")
			req.SetHost(host)
			if err := cs.cl.Do(&req, &resp); err != nil {
				t.Fatal(err)
			}
			if got := string(resp.Header.Get("X-Host")); resp.StatusCode() != 200 || got != host {
				t.Fatalf("status %d, Host received %q, want %q", resp.StatusCode(), got, host)
			}
		})
	}
	// Without a URI authority, Client dials the Host field.
	var req Request
	var resp Response
	addr := strings.TrimPrefix(cs.url, "http://")
	req.SetTarget("/echo")
	req.SetHost(addr)
	if err := cs.cl.Do(&req, &resp); err != nil || string(resp.Header.Get("X-Host")) != addr {
		t.Fatalf("origin-form with SetHost: %v, Host received %q", err, resp.Header.Get("X-Host"))
	}
	// HostClient dials Addr whatever the URI says.
	hc := &HostClient{Addr: addr}
	defer hc.CloseIdleConnections()
	req.SetURI("http://elsewhere.invalid/echo")
	req.SetHost("virtual.example")
	if err := hc.Do(&req, &resp); err != nil || string(resp.Header.Get("X-Host")) != "virtual.example" {
		t.Fatalf("HostClient: %v, Host received %q", err, resp.Header.Get("X-Host"))
	}
}
