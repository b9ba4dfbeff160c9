package files

import (
	"bufio"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
)

// fileModTime is the modification time of the test files.
var fileModTime = time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)

const (
	fileLastModified = "Mon, 06 May 2024 07:08:09 GMT"
	fileDigits       = "0123456789"
)

// fileETag is the ETag of a 10-byte file modified at fileModTime.
var fileETag = fmt.Sprintf(`"a-%x"`, fileModTime.UnixNano())

// testFS is the file system of the Server tests.
func testFS() fstest.MapFS {
	return fstest.MapFS{
		"d.txt":            {Data: []byte(fileDigits), ModTime: fileModTime},
		"noext":            {Data: []byte("<!doctype html><p>x"), ModTime: fileModTime},
		"empty.txt":        {Data: nil, ModTime: fileModTime},
		"embedded.css":     {Data: []byte("body{}")}, // no modtime: content hash
		"dir/index.html":   {Data: []byte("<p>index"), ModTime: fileModTime},
		"list/b.txt":       {Data: []byte("b"), ModTime: fileModTime},
		"list/<a&b>.txt":   {Data: []byte("x"), ModTime: fileModTime},
		"list/.hidden":     {Data: []byte("h"), ModTime: fileModTime},
		".env":             {Data: []byte("SECRET=1"), ModTime: fileModTime},
		"100%.txt":         {Data: []byte("pct"), ModTime: fileModTime},
		"app.js":           {Data: []byte("console.log(1)"), ModTime: fileModTime},
		"app.js.gz":        {Data: []byte("GZ"), ModTime: fileModTime},
		"app.js.br":        {Data: []byte("BR"), ModTime: fileModTime},
		"only-gz.txt":      {Data: []byte("plain"), ModTime: fileModTime},
		"zst.txt":          {Data: []byte("plain"), ModTime: fileModTime},
		"zst.txt.zst":      {Data: []byte("ZSTD"), ModTime: fileModTime},
		"zst.txt.gz":       {Data: []byte("GZIP"), ModTime: fileModTime},
		"only-gz.txt.gz":   {Data: []byte("gzipped"), ModTime: fileModTime},
		"sub/deep/f.txt":   {Data: []byte("deep"), ModTime: fileModTime},
		"sub/deep/f.txt.x": {Data: []byte("x"), ModTime: fileModTime},
	}
}

// fileCase is one request to a Server and the response it must get:
// the status, the body, and fields by name ("" means absent).
type fileCase struct {
	name   string
	req    string // request head without the final CRLF
	status int
	body   string // "*" skips the body check
	fields map[string]string
}

// runFileCases runs the cases against fsrv, each twice (the second
// request is answered from the cache of small files, unless fsrv has it
// off), then once against a copy of fsrv with the cache off.
func runFileCases(t *testing.T, fsrv *Server, cases []fileCase) {
	t.Helper()
	runWrappedFileCases(t, fsrv, func(c *brisk.Ctx, next brisk.Handler) { next(c) }, cases)
}

// runWrappedFileCases is runFileCases with each request handled by wrap,
// which calls next, the Server's Handle.
func runWrappedFileCases(t *testing.T, fsrv *Server, wrap func(c *brisk.Ctx, next brisk.Handler), cases []fileCase) {
	t.Helper()
	for _, run := range []struct {
		name  string
		fsrv  *Server
		times int
	}{{"cached", fsrv, 2}, {"uncached", withoutCache(fsrv), 1}} {
		ts := startServer(t, "inmemory", &brisk.Server{Handler: func(c *brisk.Ctx) { wrap(c, run.fsrv.Handle) }})
		cl := ts.connect()
		for _, tc := range cases {
			t.Run(run.name+"/"+tc.name, func(t *testing.T) {
				for range run.times {
					cl.t = t
					resp, body := cl.roundTrip(tc.req + "\r\n")
					checkFileCase(t, &tc, resp, body)
					if resp.Close {
						cl = ts.connect() // the server closed it: go on with a new one
					}
				}
			})
		}
	}
}

func checkFileCase(t *testing.T, tc *fileCase, resp *http.Response, body string) {
	t.Helper()
	if resp.StatusCode != tc.status {
		t.Fatalf("status %d, want %d (body %q)", resp.StatusCode, tc.status, body)
	}
	if tc.body != "*" && body != tc.body {
		t.Errorf("body %q, want %q", body, tc.body)
	}
	for name, want := range tc.fields {
		if got := strings.Join(resp.Header.Values(name), ", "); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// withoutCache returns a Server like s with the cache of small files
// off.
func withoutCache(s *Server) *Server {
	return &Server{FS: s.FS, Prefix: s.Prefix, Index: s.Index, Listing: s.Listing, Dotfiles: s.Dotfiles,
		Nosniff: s.Nosniff, Precompressed: s.Precompressed, MaxRanges: s.MaxRanges, CacheBytes: -1}
}

func req(target string, fields ...string) string {
	s := "GET " + target + " HTTP/1.1\r\nHost: x\r\n"
	for _, f := range fields {
		s += f + "\r\n"
	}
	return s
}

func head(target string, fields ...string) string {
	return "HEAD" + strings.TrimPrefix(req(target, fields...), "GET")
}

// TestFileConditional covers RFC 9110 §13.2.2: each precondition alone,
// their order, and the fields of 304 and 412 responses.
func TestFileConditional(t *testing.T) {
	older := "Sun, 05 May 2024 07:08:09 GMT"
	newer := "Tue, 07 May 2024 07:08:09 GMT"
	full := map[string]string{"ETag": fileETag, "Last-Modified": fileLastModified,
		"Content-Length": "10", "Content-Type": "text/plain; charset=utf-8", "Accept-Ranges": "bytes"}
	notModified := map[string]string{"ETag": fileETag, "Last-Modified": "", "Content-Type": "",
		"Content-Length": "", "Accept-Ranges": ""}
	runFileCases(t, &Server{FS: testFS()}, []fileCase{
		{"plain", req("/d.txt"), 200, fileDigits, full},
		{"inm_match", req("/d.txt", "If-None-Match: "+fileETag), 304, "", notModified},
		{"inm_weak_match", req("/d.txt", "If-None-Match: W/"+fileETag), 304, "", notModified},
		{"inm_star", req("/d.txt", "If-None-Match: *"), 304, "", notModified},
		{"inm_list", req("/d.txt", `If-None-Match: "x", `+fileETag+`, "y"`), 304, "", notModified},
		{"inm_second_line", req("/d.txt", `If-None-Match: "x"`, "If-None-Match: "+fileETag), 304, "", notModified},
		{"inm_no_match", req("/d.txt", `If-None-Match: "x", W/"y"`), 200, fileDigits, full},
		{"inm_malformed", req("/d.txt", `If-None-Match: x`+fileETag), 200, fileDigits, full},
		{"ims_equal", req("/d.txt", "If-Modified-Since: "+fileLastModified), 304, "", notModified},
		{"ims_newer", req("/d.txt", "If-Modified-Since: "+newer), 304, "", notModified},
		{"ims_older", req("/d.txt", "If-Modified-Since: "+older), 200, fileDigits, full},
		{"ims_rfc850", req("/d.txt", "If-Modified-Since: Monday, 06-May-24 07:08:09 GMT"), 304, "", notModified},
		{"ims_asctime", req("/d.txt", "If-Modified-Since: Mon May  6 07:08:09 2024"), 304, "", notModified},
		{"ims_invalid", req("/d.txt", "If-Modified-Since: yesterday"), 200, fileDigits, full},
		{"ims_twice", req("/d.txt", "If-Modified-Since: "+newer, "If-Modified-Since: "+newer), 200, fileDigits, full},
		{"inm_beats_ims", req("/d.txt", `If-None-Match: "x"`, "If-Modified-Since: "+newer), 200, fileDigits, full},
		{"im_match", req("/d.txt", "If-Match: "+fileETag), 200, fileDigits, full},
		{"im_star", req("/d.txt", "If-Match: *"), 200, fileDigits, full},
		{"im_no_match", req("/d.txt", `If-Match: "x"`), 412, "Precondition Failed\n", nil},
		{"im_weak", req("/d.txt", "If-Match: W/"+fileETag), 412, "Precondition Failed\n", nil},
		{"ius_older", req("/d.txt", "If-Unmodified-Since: "+older), 412, "Precondition Failed\n", nil},
		{"ius_equal", req("/d.txt", "If-Unmodified-Since: "+fileLastModified), 200, fileDigits, full},
		{"im_beats_ius", req("/d.txt", "If-Match: "+fileETag, "If-Unmodified-Since: "+older), 200, fileDigits, full},
		{"im_before_inm", req("/d.txt", `If-Match: "x"`, "If-None-Match: "+fileETag), 412, "Precondition Failed\n", nil},
		{"inm_before_range", req("/d.txt", "If-None-Match: "+fileETag, "Range: bytes=0-1"), 304, "", notModified},
		{"head_inm", head("/d.txt", "If-None-Match: "+fileETag), 304, "", notModified},
		{"head", head("/d.txt"), 200, "", full},
		{"embedded_hash_etag", req("/embedded.css"), 200, "body{}", map[string]string{
			"ETag": `"fJgEClQWV1hGkK4qHMO0KotT"`, "Last-Modified": "", "Content-Type": "text/css; charset=utf-8"}},
		{"embedded_inm", req("/embedded.css", `If-None-Match: "fJgEClQWV1hGkK4qHMO0KotT"`), 304, "", nil},
	})
}

// TestFileRange covers RFC 9110 §14: single and multiple ranges, the
// unsatisfiable and ignored cases, If-Range, and the bounds.
func TestFileRange(t *testing.T) {
	partial := func(cr, cl string) map[string]string {
		return map[string]string{"Content-Range": cr, "Content-Length": cl, "ETag": fileETag,
			"Content-Type": "text/plain; charset=utf-8"}
	}
	whole := map[string]string{"Content-Range": "", "Content-Length": "10"}
	unsat := map[string]string{"Content-Range": "bytes */10", "ETag": "", "Content-Type": "text/plain; charset=utf-8"}
	many := "bytes=" + strings.Repeat("0-0,", 16) + "0-0"
	runFileCases(t, &Server{FS: testFS()}, []fileCase{
		{"first", req("/d.txt", "Range: bytes=0-3"), 206, "0123", partial("bytes 0-3/10", "4")},
		{"middle", req("/d.txt", "Range: bytes=4-4"), 206, "4", partial("bytes 4-4/10", "1")},
		{"open", req("/d.txt", "Range: bytes=7-"), 206, "789", partial("bytes 7-9/10", "3")},
		{"suffix", req("/d.txt", "Range: bytes=-3"), 206, "789", partial("bytes 7-9/10", "3")},
		{"suffix_longer", req("/d.txt", "Range: bytes=-30"), 206, fileDigits, partial("bytes 0-9/10", "10")},
		{"last_past_end", req("/d.txt", "Range: bytes=5-100"), 206, "56789", partial("bytes 5-9/10", "5")},
		{"unit_case", req("/d.txt", "Range: Bytes=0-0"), 206, "0", partial("bytes 0-0/10", "1")},
		{"one_satisfiable", req("/d.txt", "Range: bytes=20-30, 1-1"), 206, "1", partial("bytes 1-1/10", "1")},
		{"first_past_end", req("/d.txt", "Range: bytes=10-"), 416, "Range Not Satisfiable\n", unsat},
		{"suffix_zero", req("/d.txt", "Range: bytes=-0"), 416, "Range Not Satisfiable\n", unsat},
		{"empty_file", req("/empty.txt", "Range: bytes=0-"), 416, "Range Not Satisfiable\n",
			map[string]string{"Content-Range": "bytes */0"}},
		{"huge_pos", req("/d.txt", "Range: bytes=99999999999999999999999-"), 416, "Range Not Satisfiable\n", unsat},
		{"syntax", req("/d.txt", "Range: bytes=abc"), 200, fileDigits, whole},
		{"last_before_first", req("/d.txt", "Range: bytes=3-1"), 200, fileDigits, whole},
		{"inner_space", req("/d.txt", "Range: bytes=1 - 2"), 200, fileDigits, whole},
		{"other_unit", req("/d.txt", "Range: items=0-1"), 200, fileDigits, whole},
		{"no_specs", req("/d.txt", "Range: bytes=,"), 200, fileDigits, whole},
		{"overlap", req("/d.txt", "Range: bytes=0-5,3-8"), 200, fileDigits, whole},
		{"overlap_unordered", req("/d.txt", "Range: bytes=6-8,0-1,1-2"), 200, fileDigits, whole},
		{"sum_past_size", req("/d.txt", "Range: bytes=0-9,-1"), 200, fileDigits, whole},
		{"too_many", req("/d.txt", "Range: "+many), 200, fileDigits, whole},
		{"head_ignores_range", head("/d.txt", "Range: bytes=0-1"), 200, "", whole},
		{"if_range_etag", req("/d.txt", "Range: bytes=0-1", "If-Range: "+fileETag), 206, "01", partial("bytes 0-1/10", "2")},
		{"if_range_other_etag", req("/d.txt", "Range: bytes=0-1", `If-Range: "x"`), 200, fileDigits, whole},
		{"if_range_weak", req("/d.txt", "Range: bytes=0-1", "If-Range: W/"+fileETag), 200, fileDigits, whole},
		{"if_range_date", req("/d.txt", "Range: bytes=0-1", "If-Range: "+fileLastModified), 206, "01", partial("bytes 0-1/10", "2")},
		{"if_range_other_date", req("/d.txt", "Range: bytes=0-1", "If-Range: Tue, 07 May 2024 07:08:09 GMT"), 200, fileDigits, whole},
	})
}

// TestFileMultipartRange checks a multipart/byteranges body part by part
// and that its Content-Length is exact.
func TestFileMultipartRange(t *testing.T) {
	ts := startServer(t, "inmemory", &brisk.Server{Handler: (&Server{FS: testFS()}).Handle})
	resp, body := ts.connect().roundTrip(req("/d.txt", "Range: bytes=7-8, 0-1,-1") + "\r\n")
	if resp.StatusCode != 206 || resp.ContentLength != int64(len(body)) {
		t.Fatalf("status %d, Content-Length %d for %d bytes", resp.StatusCode, resp.ContentLength, len(body))
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/byteranges" || len(params["boundary"]) != 24 {
		t.Fatalf("Content-Type %q", resp.Header.Get("Content-Type"))
	}
	want := [][2]string{{"bytes 7-8/10", "78"}, {"bytes 0-1/10", "01"}, {"bytes 9-9/10", "9"}}
	mr := multipart.NewReader(strings.NewReader(body), params["boundary"])
	for i, w := range want {
		p, err := mr.NextPart()
		if err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		data, _ := io.ReadAll(p)
		if p.Header.Get("Content-Range") != w[0] || string(data) != w[1] ||
			p.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("part %d: %v %q, want %s %q", i, p.Header, data, w[0], w[1])
		}
	}
	if _, err := mr.NextPart(); err != io.EOF {
		t.Errorf("after the parts: %v, want EOF", err)
	}
}

// TestFileNames covers name mapping: index, redirects, listing, dotfiles,
// escapes, traversal, methods, and media types.
func TestFileNames(t *testing.T) {
	nf := "Not Found\n"
	runFileCases(t, &Server{FS: testFS(), Prefix: "/static/", Nosniff: true}, []fileCase{
		{"prefix", req("/static/d.txt"), 200, fileDigits, map[string]string{"X-Content-Type-Options": "nosniff"}},
		{"no_prefix", req("/d.txt"), 404, nf, nil},
		{"index", req("/static/dir/"), 200, "<p>index", map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{"dir_redirect", req("/static/dir?q=1"), 301, "*", map[string]string{"Location": "./dir/?q=1"}},
		{"root_redirect", req("/static"), 301, "*", map[string]string{"Location": "./static/"}},
		{"root_no_index", req("/static/"), 404, nf, nil},
		{"no_listing", req("/static/list/"), 404, nf, nil},
		{"file_slash", req("/static/d.txt/"), 404, nf, nil},
		{"missing", req("/static/nope"), 404, nf, nil},
		{"dotfile", req("/static/.env"), 404, nf, nil},
		{"dotfile_deep", req("/static/list/.hidden"), 404, nf, nil},
		{"dotfile_escaped", req("/static/%2eenv"), 404, nf, nil},
		{"traversal", req("/static/../static/d.txt"), 200, fileDigits, nil},
		{"traversal_escaped", req("/static/%2e%2e/%2e%2e/etc/passwd"), 404, nf, nil},
		{"encoded_slash", req("/static/sub%2Fdeep/f.txt"), 404, nf, nil},
		{"encoded_backslash", req("/static/sub%5Cdeep"), 404, nf, nil},
		{"backslash", req(`/static/sub\deep\f.txt`), 400, "Bad Request\n", nil}, // refused by the server
		{"percent", req("/static/100%25.txt"), 200, "pct", nil},
		{"sniffed", req("/static/noext"), 200, "*", map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{"js_type", req("/static/app.js"), 200, "console.log(1)", map[string]string{
			"Content-Type": "text/javascript; charset=utf-8", "Vary": "", "Content-Encoding": ""}},
		{"post", "POST /static/d.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n", 405, "Method Not Allowed\n",
			map[string]string{"Allow": "GET, HEAD"}},
	})
}

// TestFileErrorFields: error answers and redirects keep the fields of
// every Server response (X-Content-Type-Options with Nosniff, Vary
// with Precompressed) and those a middleware set before calling it, but
// not Cache-Control, which would make the error as cacheable as the file
// (net/http's ServeContent drops it too).
func TestFileErrorFields(t *testing.T) {
	wrap := func(c *brisk.Ctx, next brisk.Handler) {
		c.Response.Header.Set("Strict-Transport-Security", "max-age=60")
		c.Response.Header.Set("Cache-Control", "max-age=3600")
		next(c)
	}
	kept := func(more ...string) map[string]string {
		m := map[string]string{"X-Content-Type-Options": "nosniff", "Vary": "Accept-Encoding",
			"Strict-Transport-Security": "max-age=60", "Cache-Control": "",
			"ETag": "", "Last-Modified": "", "Content-Encoding": "", "Accept-Ranges": ""}
		for i := 0; i < len(more); i += 2 {
			m[more[i]] = more[i+1]
		}
		return m
	}
	nf := "Not Found\n"
	runWrappedFileCases(t, &Server{FS: testFS(), Nosniff: true, Precompressed: true}, wrap, []fileCase{
		{"ok", req("/d.txt"), 200, fileDigits, map[string]string{"X-Content-Type-Options": "nosniff",
			"Vary": "Accept-Encoding", "Strict-Transport-Security": "max-age=60", "Cache-Control": "max-age=3600"}},
		{"missing", req("/nope"), 404, nf, kept()},
		{"refused_name", req("/.env"), 404, nf, kept()},
		{"dir_no_index", req("/list/"), 404, nf, kept()},
		{"post", "POST /d.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n", 405, "Method Not Allowed\n",
			kept("Allow", "GET, HEAD")},
		{"dir_redirect", req("/dir"), 301, "*", kept("Location", "./dir/")},
		{"unsatisfiable", req("/d.txt", "Range: bytes=20-"), 416, "Range Not Satisfiable\n",
			kept("Content-Range", "bytes */10")},
		{"unsatisfiable_encoded", req("/app.js", "Accept-Encoding: br", "Range: bytes=2-"), 416,
			"Range Not Satisfiable\n", kept("Content-Range", "bytes */2")},
	})
}

// TestFileListing checks that a listing escapes names and hides dotfiles.
func TestFileListing(t *testing.T) {
	runFileCases(t, &Server{FS: testFS(), Listing: true}, []fileCase{
		{"listing", req("/list/"), 200, "<!doctype html>\n<meta charset=\"utf-8\">\n<title>Index of /list/</title>\n" +
			"<h1>Index of /list/</h1>\n<ul>\n<li><a href=\"./%3Ca&amp;b%3E.txt\">&lt;a&amp;b&gt;.txt</a></li>\n" +
			"<li><a href=\"./b.txt\">b.txt</a></li>\n</ul>\n", map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{"index_first", req("/dir/"), 200, "<p>index", nil},
		{"root", req("/"), 200, "*", map[string]string{"Content-Type": "text/html; charset=utf-8"}},
	})
}

// TestFilePrecompressed covers the choice of a precompressed sibling by
// Accept-Encoding and what the response says about it.
func TestFilePrecompressed(t *testing.T) {
	js := "text/javascript; charset=utf-8"
	enc := func(coding string) map[string]string {
		return map[string]string{"Content-Encoding": coding, "Vary": "Accept-Encoding", "Content-Type": js,
			"ETag": fmt.Sprintf(`"2-%x-%s"`, fileModTime.UnixNano(), coding)}
	}
	identity := map[string]string{"Content-Encoding": "", "Vary": "Accept-Encoding", "Content-Type": js}
	runFileCases(t, &Server{FS: testFS(), Precompressed: true}, []fileCase{
		{"br_preferred", req("/app.js", "Accept-Encoding: gzip, deflate, br"), 200, "BR", enc("br")},
		{"q_values", req("/app.js", "Accept-Encoding: br;q=0.5, gzip;q=0.8"), 200, "GZ", enc("gzip")},
		{"x_gzip", req("/app.js", "Accept-Encoding: x-gzip"), 200, "GZ", enc("gzip")},
		{"star", req("/app.js", "Accept-Encoding: *"), 200, "BR", enc("br")},
		{"star_but_br", req("/app.js", "Accept-Encoding: *, br;q=0"), 200, "GZ", enc("gzip")},
		{"none", req("/app.js"), 200, "console.log(1)", identity},
		{"identity_only", req("/app.js", "Accept-Encoding: identity"), 200, "console.log(1)", identity},
		{"zstd", req("/zst.txt", "Accept-Encoding: gzip, zstd"), 200, "ZSTD", map[string]string{"Content-Encoding": "zstd",
			"ETag": fmt.Sprintf(`"4-%x-zstd"`, fileModTime.UnixNano())}},
		{"missing_sibling", req("/only-gz.txt", "Accept-Encoding: br, zstd"), 200, "plain", nil},
		{"fallback_sibling", req("/only-gz.txt", "Accept-Encoding: br, gzip;q=0.1"), 200, "gzipped",
			map[string]string{"Content-Encoding": "gzip"}},
		{"identity_ruled_out", req("/only-gz.txt", "Accept-Encoding: br, identity;q=0"), 200, "plain",
			map[string]string{"Vary": "Accept-Encoding", "Content-Encoding": ""}},
		{"star_ruled_out", req("/only-gz.txt", "Accept-Encoding: *;q=0"), 200, "plain",
			map[string]string{"Vary": "Accept-Encoding", "Content-Encoding": ""}},
		// Identity's weight against the siblings' (RFC 9110 §12.5.3).
		{"identity_preferred", req("/app.js", "Accept-Encoding: br;q=0.1, identity"), 200, "console.log(1)", identity},
		{"coding_preferred", req("/app.js", "Accept-Encoding: br, identity;q=0.5"), 200, "BR", enc("br")},
		{"tie_goes_to_coding", req("/app.js", "Accept-Encoding: br;q=0.5, identity;q=0.5"), 200, "BR", enc("br")},
		{"star_over_identity", req("/app.js", "Accept-Encoding: *;q=0.2, identity;q=0.1"), 200, "BR", enc("br")},
		{"star_under_identity", req("/app.js", "Accept-Encoding: *;q=0.1, identity;q=0.2"), 200, "console.log(1)", identity},
		{"below_identity_skipped", req("/app.js", "Accept-Encoding: br;q=0.2, gzip;q=0.5, identity;q=0.3"), 200, "GZ", enc("gzip")},
		{"fallback_below_identity", req("/only-gz.txt", "Accept-Encoding: br, gzip;q=0.1, identity;q=0.5"), 200, "plain",
			map[string]string{"Vary": "Accept-Encoding", "Content-Encoding": ""}},
		{"gzip_refused_star", req("/app.js", "Accept-Encoding: gzip;q=0, *"), 200, "BR", enc("br")},
		{"gzip_refused_star_no_sibling", req("/only-gz.txt", "Accept-Encoding: gzip;q=0, *"), 200, "plain",
			map[string]string{"Vary": "Accept-Encoding", "Content-Encoding": ""}},
		{"identity_zero_no_coding", req("/app.js", "Accept-Encoding: identity;q=0"), 200, "console.log(1)", identity},
		{"range_encoded_unsatisfiable", req("/app.js", "Accept-Encoding: br", "Range: bytes=2-"), 416,
			"Range Not Satisfiable\n", map[string]string{"Content-Range": "bytes */2", "Content-Encoding": "",
				"Vary": "Accept-Encoding", "ETag": ""}},
		{"range_encoded", req("/app.js", "Accept-Encoding: br", "Range: bytes=1-"), 206, "R",
			map[string]string{"Content-Range": "bytes 1-1/2", "Content-Encoding": "br"}},
		{"inm_per_encoding", req("/app.js", "Accept-Encoding: br", "If-None-Match: "+enc("gzip")["ETag"]), 200, "BR", enc("br")},
		{"inm_encoded", req("/app.js", "Accept-Encoding: br", "If-None-Match: "+enc("br")["ETag"]), 304, "", nil},
		{"sibling_direct", req("/app.js.gz"), 200, "GZ", map[string]string{"Content-Encoding": ""}},
	})
}

// TestServeContentUnsafe: for a method other than GET and HEAD, a
// matching If-None-Match is 412, not 304, and If-Modified-Since is
// ignored (RFC 9110 §13.1.2, §13.1.3).
func TestServeContentUnsafe(t *testing.T) {
	ts := startServer(t, "inmemory", &brisk.Server{Handler: func(c *brisk.Ctx) {
		ServeContent(c, "d.txt", fileModTime, strings.NewReader(fileDigits))
	}})
	cl := ts.connect()
	post := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
	if resp, _ := cl.roundTrip(post + "If-None-Match: *\r\n\r\n"); resp.StatusCode != 412 {
		t.Errorf("POST with If-None-Match: *: %d, want 412", resp.StatusCode)
	}
	if resp, _ := cl.roundTrip(post + "If-Modified-Since: " + fileLastModified + "\r\n\r\n"); resp.StatusCode != 200 {
		t.Errorf("POST with If-Modified-Since: %d, want 200", resp.StatusCode)
	}
}

// TestServeContentDifferential sends the same requests to ServeContent
// and http.ServeContent over the same content and compares status, body
// and the fields both set. Deliberate differences, not compared:
//   - HEAD with Range: brisk ignores Range (RFC 9110 §14.2: GET only),
//     net/http answers 206;
//   - a Range that does not parse ("bytes=x"): brisk ignores it (200), as
//     RFC 9110 §14.2 allows, net/http answers 416;
//   - Range with overlapping ranges or more than DefaultMaxRanges: brisk
//     sends 200 with the whole; net/http serves overlapping ranges when
//     they add up to no more than the size;
//   - ETag: brisk makes one from size and modtime, net/http sends none
//     unless the handler sets one (here both get the handler's);
//   - error bodies: the reason phrase (brisk) against net/http's texts;
//   - the multipart boundary (random in both).
func TestServeContentDifferential(t *testing.T) {
	const etag = `"v1"`
	content := "The quick brown fox jumps over the lazy dog.\n"
	bsrv := startServer(t, "inmemory", &brisk.Server{Handler: func(c *brisk.Ctx) {
		c.Response.Header.Set("ETag", etag)
		ServeContent(c, "fox.txt", fileModTime, strings.NewReader(content))
	}})
	hsrv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", etag)
		http.ServeContent(w, r, "fox.txt", fileModTime, strings.NewReader(content))
	})
	requests := [][]string{
		{},
		{"If-None-Match: " + etag},
		{"If-None-Match: W/" + etag},
		{`If-None-Match: "other"`},
		{"If-Modified-Since: " + fileLastModified},
		{"If-Modified-Since: Sun, 05 May 2024 07:08:09 GMT"},
		{"If-Match: " + etag},
		{`If-Match: "other"`},
		{"If-Unmodified-Since: Sun, 05 May 2024 07:08:09 GMT"},
		{"If-Unmodified-Since: " + fileLastModified},
		{"Range: bytes=0-4"},
		{"Range: bytes=-5"},
		{"Range: bytes=40-"},
		{"Range: bytes=100-"},
		{"Range: bytes=0-1,5-9"},
		{"Range: bytes=0-1", "If-Range: " + etag},
		{"Range: bytes=0-1", `If-Range: "other"`},
		{"Range: bytes=0-1", "If-Range: " + fileLastModified},
		{"Range: bytes=0-1", "If-None-Match: " + etag},
	}
	for _, fields := range requests {
		name := strings.Join(fields, "; ")
		t.Run(name, func(t *testing.T) {
			bresp, bbody := bsrv.connect().roundTrip(req("/", fields...) + "\r\n")
			hr, _ := http.ReadRequest(bufioReader(req("/", fields...) + "\r\n"))
			rec := newRecorder()
			hsrv.ServeHTTP(rec, hr)
			if bresp.StatusCode != rec.code {
				t.Fatalf("status %d, net/http %d", bresp.StatusCode, rec.code)
			}
			if bresp.StatusCode < 300 && !strings.HasPrefix(bresp.Header.Get("Content-Type"), "multipart/") && bbody != rec.body.String() {
				t.Errorf("body %q, net/http %q", bbody, rec.body.String())
			}
			for _, f := range []string{"ETag", "Last-Modified", "Content-Range", "Accept-Ranges"} {
				if b, h := bresp.Header.Get(f), rec.h.Get(f); b != h {
					t.Errorf("%s %q, net/http %q", f, b, h)
				}
			}
			if ct := rec.h.Get("Content-Type"); bresp.StatusCode < 300 && !strings.HasPrefix(ct, "multipart/") &&
				bresp.Header.Get("Content-Type") != ct {
				t.Errorf("Content-Type %q, net/http %q", bresp.Header.Get("Content-Type"), ct)
			}
		})
	}
}

// recorder is a minimal http.ResponseWriter (net/http/httptest would do,
// but its import pulls in more than this test needs).
type recorder struct {
	h    http.Header
	code int
	body strings.Builder
}

func newRecorder() *recorder             { return &recorder{h: http.Header{}} }
func (r *recorder) Header() http.Header  { return r.h }
func (r *recorder) WriteHeader(code int) { r.code = code }
func (r *recorder) Write(p []byte) (int, error) {
	if r.code == 0 {
		r.code = 200
	}
	return r.body.Write(p)
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }
