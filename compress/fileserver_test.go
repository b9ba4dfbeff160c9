package compress

import (
	"bytes"
	"testing"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
)

// TestPrecompressedIdentityRuledOut: a Precompressed FileServer without
// the sibling a client asks for sends the file as is even when the
// client ruled out identity, so the middleware in front encodes it.
func TestPrecompressedIdentityRuledOut(t *testing.T) {
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	plain := jsonBody(4096)
	fsrv := &brisk.FileServer{FS: fstest.MapFS{"a.json": {Data: plain, ModTime: mtime}}, Precompressed: true}
	do := serve(t, Config{Codings: []string{Gzip}}, fsrv.Handle)
	for range 2 { // the second from the FileServer's cache
		resp, body := do("GET /a.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, identity;q=0\r\n")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(decodeBody(t, Gzip, body), plain) ||
			resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%d, Content-Encoding %q, Vary %q, %d bytes; want 200 gzip of %d bytes", resp.StatusCode,
				resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"), len(body), len(plain))
		}
	}
}
