package h3

import (
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestMatrixFacts asserts over HTTP/3 what tests/matrix asserts over
// HTTP/1.1, TLS, h2 and h2c (that package is in the root module, which
// does not link quic-go): Ctx.Proto, RemoteAddr, PeerAddr (the UDP peer:
// no PROXY header precedes QUIC), LocalAddr, ClientIP through a trusted
// X-Forwarded-For, TLS, and one OnRequestDone with the status and byte
// counts.
func TestMatrixFacts(t *testing.T) {
	f := start(t, func(c *brisk.Ctx) {
		fmt.Fprintf(c.BodyWriter(), "%s|%s|%s|%s|%s|%v", c.Proto(), c.RemoteAddr(), c.PeerAddr(), c.LocalAddr(), c.ClientIP(), c.TLS() != nil)
	}, func(s *brisk.Server) {
		s.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	req, _ := http.NewRequest("GET", f.url("/facts"), nil)
	req.Header.Set("X-Forwarded-For", "198.51.100.9")
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got := strings.Split(string(b), "|")
	if len(got) != 6 {
		t.Fatalf("body %q", b)
	}
	rec := f.rec.one(t, "/facts")
	remote := rec.RemoteAddr.String()
	want := []string{"HTTP/3.0", remote, remote, f.addr, "198.51.100.9", "true"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fact %d: %q, want %q (all: %q)", i, got[i], want[i], got)
		}
	}
	if !strings.HasPrefix(remote, "127.0.0.1:") {
		t.Errorf("RemoteAddr %q", remote)
	}
	if rec.Proto != "HTTP/3.0" || rec.Status != 200 || rec.BytesWritten < int64(len(b)) || rec.BytesRead == 0 || rec.Err != nil {
		t.Errorf("record %+v", rec)
	}
}
