package decode_test

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/compress"
	"github.com/brisk-http/brisk/decode"
)

// TestBriskCompression: bodies compressed by brisk's own compress
// middleware, in each coding it offers, come out of the client decoded.
func TestBriskCompression(t *testing.T) {
	plain := []byte(strings.Repeat("brisk compresses, brisk decodes. ", 1000))
	for _, coding := range []string{compress.Zstd, compress.Brotli, compress.Gzip} {
		t.Run(coding, func(t *testing.T) {
			var sent string
			h := compress.New(compress.Config{Codings: []string{coding}})(func(c *brisk.Ctx) {
				c.Response.Header.Set("Content-Type", "text/plain")
				c.Response.SetBody(plain)
			})
			s := &brisk.Server{Handler: func(c *brisk.Ctx) {
				h(c)
				sent = string(c.Response.Header.Get("Content-Encoding"))
			}}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go s.Serve(ln)
			defer s.Shutdown(context.Background())
			c := brisk.Client{ClientConfig: brisk.ClientConfig{Decoders: decode.All()}}
			var req brisk.Request
			var resp brisk.Response
			req.SetURI("http://" + ln.Addr().String() + "/")
			if err := c.Do(&req, &resp); err != nil {
				t.Fatal(err)
			}
			if sent != coding || !bytes.Equal(resp.Body(), plain) || resp.Header.Has("Content-Encoding") {
				t.Errorf("server sent %q; client got %d bytes, Content-Encoding %q", sent, len(resp.Body()), resp.Header.Get("Content-Encoding"))
			}
		})
	}
}
