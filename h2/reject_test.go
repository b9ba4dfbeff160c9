package h2

import (
	"bytes"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestBridgeOnReject: a request on HTTP/2 that the brisk Server answers
// with an error status before its Handler (a head that does not parse
// once bridged, a Content-Length over MaxBodyBytes) is reported to
// Server.OnReject as on HTTP/1.1, so that an access log or a metric fed
// by OnReject sees it.
func TestBridgeOnReject(t *testing.T) {
	got := make(chan int, 4)
	srv := &brisk.Server{H2C: true, MaxBodyBytes: 10, Handler: func(c *brisk.Ctx) {},
		OnReject: func(r brisk.Rejection) { got <- r.Status }}
	if err := Configure(srv, Config{}); err != nil {
		t.Fatal(err)
	}
	fr, _ := h2cConn(t, serve(t, srv, false))
	send := func(id uint32, method, cl string) {
		var b bytes.Buffer
		enc := hpack.NewEncoder(&b)
		for _, f := range [][2]string{{":method", method}, {":scheme", "http"}, {":authority", "a"}, {":path", "/"}, {"content-length", cl}} {
			enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
		}
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: b.Bytes(), EndHeaders: true, EndStream: cl == "0"})
	}
	send(1, `GE"T`, "0")   // a token x/net lets through; brisk's parser does not
	send(3, "POST", "100") // over MaxBodyBytes
	for _, want := range []int{400, 413} {
		select {
		case code := <-got:
			if code != want {
				t.Errorf("OnReject status %d; want %d", code, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("OnReject not called for the %d", want)
		}
	}
}
