package h3

import (
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/testsupport/syncbuf"
	"github.com/brisk-http/brisk/middleware"
)

// TestAccessLog: middleware.AccessLog logs an HTTP/3 request as any
// other, from the same hook: one record, proto HTTP/3.0, remote the UDP
// peer, client the trusted X-Forwarded-For.
func TestAccessLog(t *testing.T) {
	var out syncbuf.Buffer
	l := &middleware.AccessLog{Format: middleware.FormatJSON, Writer: &out}
	f := start(t, func(c *brisk.Ctx) { c.Response.SetBodyString("ok") }, func(s *brisk.Server) {
		s.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		s.OnRequestDone = l.OnRequestDone
	})
	req, _ := http.NewRequest("GET", f.url("/logged?a=1"), nil)
	req.Header.Set("X-Forwarded-For", "198.51.100.9")
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	for deadline := time.Now().Add(5 * time.Second); out.String() == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	time.Sleep(50 * time.Millisecond) // a second record would come now
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines, want 1: %q", len(lines), lines)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatalf("%v: %s", err, lines[0])
	}
	want := map[string]any{"msg": "request", "method": "GET", "target": "/logged?a=1", "proto": "HTTP/3.0",
		"status": 200.0, "client": "198.51.100.9", "host": f.addr}
	for k, v := range want {
		if rec[k] != v {
			t.Errorf("%s: %#v, want %#v (%s)", k, rec[k], v, lines[0])
		}
	}
	if r, _ := rec["remote"].(string); !strings.HasPrefix(r, "127.0.0.1:") {
		t.Errorf("remote %q, want the UDP peer", r)
	}
	if n, _ := rec["bytes"].(float64); n <= 0 {
		t.Errorf("bytes %v", rec["bytes"])
	}
}
