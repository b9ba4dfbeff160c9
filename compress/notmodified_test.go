package compress

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
)

// TestNotModifiedETag: a files.Server behind the middleware answers a
// revalidation of its compressed 200 (If-None-Match with the weak tag)
// with a 304 that carries that weak tag and the Vary, and one of the
// identity copy (the strong tag) with the strong tag.
func TestNotModifiedETag(t *testing.T) {
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	fsrv := &files.Server{FS: fstest.MapFS{"a.json": {Data: jsonBody(4096), ModTime: mtime}}}
	do := serve(t, Config{Codings: []string{Gzip}}, fsrv.Handle)
	resp, _ := do("GET /a.json HTTP/1.1\r\nHost: x\r\n")
	strong := resp.Header.Get("ETag")
	resp, _ = do("GET /a.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n")
	weak := resp.Header.Get("ETag")
	if resp.Header.Get("Content-Encoding") != "gzip" || weak != "W/"+strong || strong[0] != '"' {
		t.Fatalf("200s: ETag %s, then %s with Content-Encoding %q", strong, weak, resp.Header.Get("Content-Encoding"))
	}
	for _, tc := range []struct {
		name, inm, etag, vary string
	}{
		{"weak", weak, weak, "Accept-Encoding"},
		{"weak_in_list", `"other", ` + weak, weak, "Accept-Encoding"},
		{"strong", strong, strong, ""},
		{"both", weak + ", " + strong, strong, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, _ := do("GET /a.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: " + tc.inm + "\r\n")
			if resp.StatusCode != 304 || resp.Header.Get("ETag") != tc.etag || resp.Header.Get("Vary") != tc.vary {
				t.Fatalf("%d, ETag %s, Vary %q; want 304, %s, %q", resp.StatusCode,
					resp.Header.Get("ETag"), resp.Header.Get("Vary"), tc.etag, tc.vary)
			}
		})
	}
}

// TestNotModifiedMalformedList: If-None-Match is read as brisk reads it,
// a malformed element (here a space inside the quotes) ending the list,
// so a weak tag after it does not weaken the handler's 304.
func TestNotModifiedMalformedList(t *testing.T) {
	do := serve(t, Config{Codings: []string{Gzip}}, func(c *brisk.Ctx) {
		c.Response.SetStatusCode(304)
		c.Response.Header.Set("ETag", `"x"`)
	})
	for _, tc := range []struct{ name, inm, etag, vary string }{
		{"well_formed", `"a", W/"x"`, `W/"x"`, "Accept-Encoding"},
		{"space_before", `W/"a b", W/"x"`, `"x"`, ""},
		{"tab_before", "W/\"a\tb\", W/\"x\"", `"x"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, _ := do("GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: " + tc.inm + "\r\n")
			if resp.StatusCode != 304 || resp.Header.Get("ETag") != tc.etag || resp.Header.Get("Vary") != tc.vary {
				t.Fatalf("%d, ETag %s, Vary %q; want 304, %s, %q", resp.StatusCode,
					resp.Header.Get("ETag"), resp.Header.Get("Vary"), tc.etag, tc.vary)
			}
		})
	}
}
