package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// compressRoot writes a Root with a 130 KB script (streamed from disk,
// not cached), a 4.5 KB one with a .gz sibling holding other bytes (so
// that serving the sibling is told from compressing the file), and an
// image, and returns its path and the script's bytes.
func compressRoot(t *testing.T) (dir string, app []byte) {
	t.Helper()
	dir = t.TempDir()
	var b strings.Builder
	for i := range 4000 {
		b.WriteString("function f" + strings.Repeat("x", i%7) + "(y){return y+1;}\n")
	}
	app = []byte(b.String())
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("// from the sibling\n"))
	zw.Close()
	for name, data := range map[string][]byte{
		"app.js":    app,
		"pre.js":    bytes.Repeat([]byte("var a = 1;\n"), 400),
		"pre.js.gz": gz.Bytes(),
		"pic.png":   bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1000),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, app
}

// decodeBody decodes body of the given Content-Encoding ("" for none).
func decodeBody(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	default:
		t.Fatalf("Content-Encoding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decode %s: %v", coding, err)
	}
	return out
}

// TestSiteCompressesRoot: with Compress, a Root file of a compressible
// type comes back in the coding the client prefers, decoding to the
// file, with Vary and a weak ETag; a .gz sibling is served instead of
// compressing; an image, a range and a client offering no coding get
// the file as is.
func TestSiteCompressesRoot(t *testing.T) {
	dir, app := compressRoot(t)
	addr := startSite(t, Config{Root: dir, Compress: true})
	get := func(target, extra string) (*http.Response, []byte) {
		return rawRequest(t, addr, "GET "+target+" HTTP/1.1\r\nHost: x\r\n"+extra+"\r\n")
	}
	for _, coding := range []string{"zstd", "br", "gzip"} {
		t.Run(coding, func(t *testing.T) {
			resp, body := get("/static/app.js", "Accept-Encoding: "+coding+"\r\n")
			if got := resp.Header.Get("Content-Encoding"); got != coding {
				t.Fatalf("Content-Encoding %q, want %q", got, coding)
			}
			if got := decodeBody(t, coding, body); !bytes.Equal(got, app) {
				t.Errorf("decoded %d bytes, want the file's %d", len(got), len(app))
			}
			if len(body) >= len(app)/4 {
				t.Errorf("%d bytes on the wire for a %d-byte script", len(body), len(app))
			}
			if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q", got)
			}
			if etag := resp.Header.Get("ETag"); !strings.HasPrefix(etag, `W/"`) {
				t.Errorf("ETag %q, want a weak one", etag)
			}
		})
	}
	t.Run("preference", func(t *testing.T) {
		resp, _ := get("/static/app.js", "Accept-Encoding: gzip;q=0.5, br;q=0.8, zstd;q=0.1\r\n")
		if got := resp.Header.Get("Content-Encoding"); got != "br" {
			t.Errorf("Content-Encoding %q, want br (the highest q)", got)
		}
	})
	t.Run("identity", func(t *testing.T) {
		resp, body := get("/static/app.js", "")
		if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, app) {
			t.Errorf("no Accept-Encoding: Content-Encoding %q, %d bytes", resp.Header.Get("Content-Encoding"), len(body))
		}
		if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Vary %q on the identity response", got)
		}
		if etag := resp.Header.Get("ETag"); strings.HasPrefix(etag, "W/") || etag == "" {
			t.Errorf("ETag %q, want the file's strong one", etag)
		}
	})
	t.Run("sibling", func(t *testing.T) {
		resp, body := get("/static/pre.js", "Accept-Encoding: gzip\r\n")
		if got := string(decodeBody(t, resp.Header.Get("Content-Encoding"), body)); got != "// from the sibling\n" {
			t.Errorf("got %q, want the bytes of pre.js.gz decoded", got)
		}
	})
	t.Run("image", func(t *testing.T) {
		resp, _ := get("/static/pic.png", "Accept-Encoding: gzip\r\n")
		if got := resp.Header.Get("Content-Encoding"); got != "" {
			t.Errorf("image/png sent with Content-Encoding %q", got)
		}
	})
	t.Run("range", func(t *testing.T) {
		resp, body := get("/static/app.js", "Accept-Encoding: gzip\r\nRange: bytes=10-19\r\n")
		if resp.StatusCode != 206 || resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, app[10:20]) {
			t.Errorf("range: %d, Content-Encoding %q, %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), body)
		}
	})
	t.Run("not_modified", func(t *testing.T) {
		resp, _ := get("/static/app.js", "Accept-Encoding: gzip\r\n")
		etag := resp.Header.Get("ETag")
		resp, _ = get("/static/app.js", "Accept-Encoding: gzip\r\nIf-None-Match: "+etag+"\r\n")
		if resp.StatusCode != 304 || resp.Header.Get("ETag") != etag {
			t.Errorf("If-None-Match %s: %d with ETag %q", etag, resp.StatusCode, resp.Header.Get("ETag"))
		}
	})
}

// TestSiteCompressesEmbedded: the home page and an embedded stylesheet
// are compressed; a body under 1 KiB (hello.txt, /plaintext) is not.
func TestSiteCompressesEmbedded(t *testing.T) {
	addr := startSite(t, Config{Compress: true})
	for _, tc := range []struct{ target, coding string }{
		{"/", "gzip"},
		{"/static/style.css", "gzip"},
		{"/static/hello.txt", ""},
		{"/plaintext", ""},
	} {
		resp, body := rawRequest(t, addr, "GET "+tc.target+" HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
		if got := resp.Header.Get("Content-Encoding"); got != tc.coding {
			t.Errorf("%s: Content-Encoding %q, want %q", tc.target, got, tc.coding)
			continue
		}
		_, plain := rawGet(t, addr, "GET", tc.target)
		if got := decodeBody(t, tc.coding, body); !bytes.Equal(got, plain) {
			t.Errorf("%s: decoded %d bytes differ from the identity response's %d", tc.target, len(got), len(plain))
		}
	}
}

// TestSiteCompressOff: without Compress nothing is encoded and a .gz
// sibling is not looked at.
func TestSiteCompressOff(t *testing.T) {
	dir, app := compressRoot(t)
	addr := startSite(t, Config{Root: dir})
	for _, target := range []string{"/", "/static/app.js", "/static/pre.js"} {
		resp, body := rawRequest(t, addr, "GET "+target+" HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br, zstd\r\n\r\n")
		if got := resp.Header.Get("Content-Encoding"); got != "" {
			t.Errorf("%s: Content-Encoding %q with Compress off", target, got)
		}
		if target == "/static/app.js" && !bytes.Equal(body, app) {
			t.Errorf("%s: %d bytes, want the file's %d", target, len(body), len(app))
		}
	}
}
