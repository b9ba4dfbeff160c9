package main

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

func TestPrefixList(t *testing.T) {
	var p prefixList
	if err := p.Set("10.0.0.0/8, 127.0.0.1,::1,192.168.1.7/24"); err != nil {
		t.Fatal(err)
	}
	if got, want := p.String(), "10.0.0.0/8,127.0.0.1/32,::1/128,192.168.1.0/24"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
	for _, bad := range []string{"", "10.0.0.0/33", "host.example", "10.0.0.0/8,,"} {
		var q prefixList
		if err := q.Set(bad); err == nil {
			t.Errorf("Set(%q) = nil, want an error", bad)
		}
	}
}

func TestClientIPFieldFlag(t *testing.T) {
	for arg, want := range map[string]brisk.ForwardingField{
		"": "", "-client-ip-field=forwarded": brisk.FieldForwarded,
		"-client-ip-field=X-Real-IP": brisk.FieldXRealIP, "-client-ip-field=x-forwarded-for": brisk.FieldXForwardedFor,
	} {
		var d deployOptions
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		d.addFlags(fs)
		args := []string{arg}
		if arg == "" {
			args = nil
		}
		if err := fs.Parse(args); err != nil || d.ipField != want {
			t.Errorf("%q: field %q, error %v; want %q", arg, d.ipField, err, want)
		}
	}
	var d deployOptions
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	d.addFlags(fs)
	if err := fs.Parse([]string{"-client-ip-field=X-Client-IP"}); err == nil {
		t.Error("-client-ip-field=X-Client-IP accepted")
	}
}

// TestServeDeployFlags: -trusted-proxies shows in the echo document's
// "remote", -metrics serves /metrics, /readyz answers ready.
func TestServeDeployFlags(t *testing.T) {
	o := serveOptions{addr: "127.0.0.1:0", echo: true}
	o.deploy.trusted = prefixList{netip.MustParsePrefix("127.0.0.0/8")}
	o.deploy.metricsOn = true
	url, _, stop := startServe(t, o)
	defer stop()

	req, _ := http.NewRequest("GET", url+"x", nil)
	req.Header.Set("X-Forwarded-For", "198.51.100.66, 203.0.113.7")
	req.Header.Set("Forwarded", "for=198.51.100.99") // not the -client-ip-field
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Remote string }
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if remote, _ := base64.StdEncoding.DecodeString(doc.Remote); string(remote) != "203.0.113.7" {
		t.Fatalf("remote %q, want 203.0.113.7", remote)
	}
	if code, body := get(t, url+"readyz"); code != 200 || body != "ready\n" {
		t.Fatalf("/readyz: %d %q", code, body)
	}
	code, body := get(t, url+"metrics")
	if code != 200 || !strings.Contains(body, "\nhttp_server_request_duration_seconds_count{") {
		t.Fatalf("/metrics: %d %.500q", code, body)
	}
}
