package reverseproxy

import (
	"bufio"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

//lint:file-ignore SA1019 x/net deprecates h2c and http2.Server, but net/http serves h2c by prior knowledge only: the upstream that accepts "Upgrade: h2c" needs them

// TestProxyRefusesH2CUpgrade: a request offering "Upgrade: h2c" (RFC
// 7540 §3.2, removed by RFC 9113) is forwarded without the offer and
// without HTTP2-Settings (here not named in Connection), so
// that an upstream speaking h2c cannot switch the connection: were the
// proxy to tunnel its 101, the client would speak HTTP/2 to the upstream
// directly, every later request unseen by the proxy (h2c smuggling).
// The response is the upstream's ordinary answer, and the connection
// goes on with HTTP/1.1 requests the proxy reads.
func TestProxyRefusesH2CUpgrade(t *testing.T) {
	var seen atomic.Value
	h := h2c.NewHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Proto + " " + r.Header.Get("Upgrade") + "|" + r.Header.Get("Http2-Settings"))
		io.WriteString(w, r.Proto)
	}), &http2.Server{})
	ln := testserver.Listen(t)
	hs := &http.Server{Handler: h}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	p := &Proxy{Upstreams: []string{"http://" + ln.Addr().String()}}
	addr := front(t, p)
	for _, conn := range []string{"Upgrade", "Upgrade, HTTP2-Settings"} {
		seen.Store("")
		c := dial(t, addr)
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nConnection: "+conn+"\r\nUpgrade: websocket, h2c\r\n"+
			"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n")
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || string(body) != "HTTP/1.1" || seen.Load() != "HTTP/1.1 |" {
			t.Fatalf("Connection: %s: %d %q; the upstream saw %q", conn, resp.StatusCode, body, seen.Load())
		}
		io.WriteString(c, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
			t.Errorf("Connection: %s: next request: %v %v", conn, resp, err)
		}
	}
}
