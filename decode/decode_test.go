package decode_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/decode"
)

func encode(t testing.TB, coding string, b []byte) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "br":
		w = brotli.NewWriter(&buf)
	case "zstd":
		w, _ = zstd.NewWriter(&buf)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDecoders: each coding is asked for and decoded, on one keep-alive
// connection whose decoders are reused.
func TestDecoders(t *testing.T) {
	plain := []byte(strings.Repeat("brisk decodes this body. ", 2000))
	bodies := map[string][]byte{}
	for _, c := range []string{"gzip", "br", "zstd"} {
		bodies[c] = encode(t, c, plain)
	}
	s := &brisk.Server{Handler: func(c *brisk.Ctx) {
		coding := string(c.Request.Path()[1:])
		c.Response.Header.Set("X-Asked", string(c.Request.Header.Get("Accept-Encoding")))
		c.Response.Header.Set("Content-Encoding", coding)
		c.Response.SetBody(bodies[coding])
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer s.Shutdown(context.Background())
	c := brisk.Client{ClientConfig: brisk.ClientConfig{Decoders: decode.All()}}
	for range 2 {
		for _, coding := range []string{"gzip", "br", "zstd"} {
			var req brisk.Request
			var resp brisk.Response
			req.SetURI("http://" + ln.Addr().String() + "/" + coding)
			if err := c.Do(&req, &resp); err != nil {
				t.Fatalf("%s: %v", coding, err)
			}
			if !bytes.Equal(resp.Body(), plain) || resp.Header.Has("Content-Encoding") {
				t.Errorf("%s: %d bytes, Content-Encoding %q", coding, len(resp.Body()), resp.Header.Get("Content-Encoding"))
			}
			if got := string(resp.Header.Get("X-Asked")); got != "zstd, br, gzip" {
				t.Errorf("Accept-Encoding sent %q", got)
			}
		}
	}
}
