package files

import (
	"errors"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/accept"
)

// Server serves the files of a file system: an embed.FS, an
// fstest.MapFS, or a directory confined by os.Root (Root.FS), which no
// name can leave, through ".." or a symbolic link. Set its fields before
// the first request and do not change them afterwards; it is safe for
// concurrent use. Each file is answered as by ServeContent (validators,
// conditional requests, ranges, media type, HEAD), streamed from the file
// system and, for an *os.File on a plain TCP connection, sent by
// sendfile(2).
//
// The request path ([brisk.Request.Path]: decoded, without dot-segments,
// unable to climb above "/") minus Prefix names the file. A path that
// still holds an encoded "/", "\" or control character, a NUL or "\"
// byte, or (unless Dotfiles) an element starting with ".", is answered
// 404 before the file system is asked; "%25" is a "%" in the name.
// Methods other than GET and HEAD are answered 405 with "Allow: GET,
// HEAD". A missing file, one that is not a regular file or directory, a
// name that cannot exist (longer than the file system allows, a file used
// as a directory, a link loop), or a directory path without an index file
// or listing is answered 404, a permission error 403 and other errors 500
// (logged). Error answers have a text/plain body (the reason phrase) and
// keep the fields set before the Server was called, except the
// validators, Content-Encoding and Cache-Control, as net/http's do.
type Server struct {
	// FS is the file system served. Files that implement io.Seeker are
	// served (those of os, embed and testing/fstest do); others are
	// answered 500. For a directory on disk use os.OpenRoot(dir) and
	// Root.FS, which refuses names that resolve outside dir.
	FS fs.FS

	// Prefix is removed from the request path before the file is looked
	// up ("/static/" serves "/static/a.css" from "a.css"). A path without
	// it is answered 404. Empty means "/". It is removed as a string, as
	// http.StripPrefix does: end it with "/", or "/static" also serves
	// "/staticx.txt" from "x.txt". With Prefix "/static/", the path
	// "/static" is redirected (301) to "/static/".
	Prefix string

	// Index is the file served for a path naming a directory with a
	// trailing "/". Empty means "index.html". A directory path without the
	// trailing "/" is redirected (301) to the path with it.
	Index string

	// Listing answers a directory without its Index file with an HTML
	// list of its entries (names HTML-escaped, links percent-encoded,
	// dotfiles left out unless Dotfiles); off, such a directory is 404.
	Listing bool

	// Dotfiles serves names with an element starting with "." (".env",
	// ".git/config"); off, they are answered 404.
	Dotfiles bool

	// Nosniff adds "X-Content-Type-Options: nosniff" to every response
	// of the Server, errors and redirects included, so browsers keep
	// to the Content-Type sent.
	Nosniff bool

	// Precompressed serves "name.br", "name.zst" or "name.gz" instead of
	// "name" when the sibling exists and the request's Accept-Encoding
	// accepts its coding (q-values, "*"; RFC 9110 §12.5.3) at least as
	// much as identity ("br;q=0.1, identity" gets "name", "br, identity"
	// gets "name.br"), in that order of preference at equal q-values,
	// with Content-Encoding, an ETag of its own ("-br", "-zstd" or
	// "-gzip" appended), and ranges counted in the encoded bytes. Every
	// response of the Server, errors and redirects included, then
	// carries "Vary: Accept-Encoding" (RFC 9110 §12.5.5), so that caches
	// keep the variants apart. When no sibling the client accepts
	// exists, "name" is sent as is, even to a client that ruled out
	// identity ("identity;q=0", "*;q=0"): RFC 9110 allows it, net/http
	// and nginx do it, and a compression middleware (package compress)
	// in front can then encode it.
	Precompressed bool

	// MaxRanges is the most ranges one Range field may ask for. Zero or
	// negative means DefaultMaxRanges (16). A Range with more, or whose
	// ranges overlap or add up to more than the file, is ignored and the
	// whole file is sent (200): never more bytes than the file's size
	// plus the multipart framing.
	MaxRanges int

	// CacheBytes bounds the memory, in bytes of file content, of the
	// cache of files: a file of at most MaxCachedSize bytes (and,
	// with Precompressed, each of its siblings) is read whole on its
	// first request and later requests for the same path are answered
	// from memory, without opening it; of a larger file (with a
	// modification time) only the metadata and a few open files are
	// kept, the body still streamed from disk. Zero means
	// DefaultCacheBytes (16 MiB); negative turns the cache off. When
	// full, arbitrary entries are evicted.
	CacheBytes int64

	// CacheEntries bounds the number of request paths cached. Zero means
	// DefaultCacheEntries (4096); negative turns the cache off.
	CacheEntries int

	// CacheCheck is how long a cached file is answered from memory before
	// the file system is asked again: a stat of the file (and of its
	// siblings, with Precompressed). A file changed (in size,
	// modification time or mode; on Linux also in inode or status change
	// time, so a file rewritten with its times kept), replaced, removed,
	// or made unreachable (a link now pointing out of an os.Root) is
	// noticed within that time, and the request that notices it is
	// answered as if the file had never been cached. A CacheCheck of a
	// second or more is measured with the brisk.Server's clock of
	// one-second resolution (brisk.Ctx.CoarseNow), so the change is
	// noticed within CacheCheck plus a second. Zero means
	// DefaultCacheCheck (1 s); negative checks on every request.
	//
	// Until a change is noticed the old bytes are served with their own
	// validators, never the new bytes with the old ones: a file kept
	// open, or opened anew, is stated before it is sent and again before
	// the last byte of each section goes out, and a file that changed
	// meanwhile is not sent (before) or cut short, the connection closed
	// (during), so the client sees an incomplete response. ServeContent
	// does the same for content with a Stat method (an *os.File).
	CacheCheck time.Duration

	hashes    sync.Map // name -> *hashEntry: ETags of files without a modification time
	cacheOnce sync.Once
	files     *fileCache // nil when off
	tails     sync.Pool  // *tailBuf: the bytes a streamed section holds back (sendChecked)
}

// hashEntry is the content-hash ETag of a file without a modification
// time, for the size it had.
type hashEntry struct {
	size int64
	etag string
}

// precompressed lists the sibling files Precompressed looks for, in the
// server's order of preference.
var precompressed = [...]struct{ coding, ext string }{
	{"br", ".br"}, {"zstd", ".zst"}, {"gzip", ".gz"},
}

// precompressedCodings holds the codings of precompressed, in its order:
// the offers codingOrder weighs.
var precompressedCodings = func() []string {
	cs := make([]string, len(precompressed))
	for i, p := range precompressed {
		cs[i] = p.coding
	}
	return cs
}()

// Handle is the Server's [brisk.Handler].
func (s *Server) Handle(c *brisk.Ctx) {
	s.setCommonFields(c)
	if m := c.Request.Method(); string(m) != "GET" && string(m) != "HEAD" {
		answerError(&c.Response, 405)
		c.Response.Header.Set("Allow", "GET, HEAD")
		return
	}
	if e := s.cached(c); e != nil && s.serveCached(c, e, nil) {
		return
	}
	name, dir, ok := s.fileName(c.Request.Path())
	if !ok {
		answerError(&c.Response, 404)
		return
	}
	s.serveName(c, name, dir)
}

// setCommonFields sets the fields of every response of the Server,
// errors and redirects included (which keep them, see answerError): Vary
// with Precompressed, X-Content-Type-Options with Nosniff.
func (s *Server) setCommonFields(c *brisk.Ctx) {
	if s.Precompressed {
		c.Response.Header.Set("Vary", "Accept-Encoding")
	}
	if s.Nosniff {
		c.Response.Header.Set("X-Content-Type-Options", "nosniff")
	}
}

// fileName maps a request path to an io/fs name ("." for the root) and
// whether the path ends in "/"; ok is false for a path the server refuses
// (see Server).
func (s *Server) fileName(p []byte) (name string, dir, ok bool) {
	prefix := s.Prefix
	if prefix == "" {
		prefix = "/"
	}
	rest, found := strings.CutPrefix(string(p), prefix)
	if !found {
		if string(p)+"/" != prefix {
			return "", false, false
		}
		rest = "" // "/static" for Prefix "/static/": the root, redirected
	}
	dir = len(p) > 0 && p[len(p)-1] == '/'
	rest = strings.Trim(rest, "/")
	if rest == "" {
		return ".", dir, true
	}
	rest, ok = unescapePercent(rest)
	if !ok || !fs.ValidPath(rest) || strings.ContainsAny(rest, "\\\x00") {
		return "", false, false
	}
	if !s.Dotfiles && hasDotElement(rest) {
		return "", false, false
	}
	return rest, dir, true
}

// unescapePercent decodes the "%25" escapes brisk.Request.Path leaves in
// place; any other escape left there ("/", "\" or a control character)
// refuses the name.
func unescapePercent(name string) (string, bool) {
	if !strings.Contains(name, "%") {
		return name, true
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] != '%' {
			b.WriteByte(name[i])
			continue
		}
		if !strings.HasPrefix(name[i:], "%25") {
			return "", false
		}
		b.WriteByte('%')
		i += 2
	}
	return b.String(), true
}

// hasDotElement reports whether an element of name starts with ".".
func hasDotElement(name string) bool {
	return strings.HasPrefix(name, ".") || strings.Contains(name, "/.")
}

// serveName answers the file or directory name.
func (s *Server) serveName(c *brisk.Ctx, name string, dir bool) {
	f, fi, err := s.openFile(name)
	if f != nil {
		defer f.Close()
	}
	switch {
	case err != nil:
		s.fail(c, name, err)
	case fi.IsDir() && !dir:
		redirectToDir(c)
	case fi.IsDir():
		s.serveDir(c, name)
	case dir:
		answerError(&c.Response, 404)
	default:
		s.serveFile(c, name, f, fi)
	}
}

// openFile opens the regular file name and stats it; for a directory it
// returns only its FileInfo (f is nil): only a listing reads one. A name
// that is neither is reported as not existing. On a file system that can
// stat a name (fs.StatFS: os.Root's, os.DirFS) that is checked before the
// name is opened: opening a named pipe blocks until a writer comes,
// holding the request (and an OS thread) indefinitely, and opening a
// device can have effects. The open file is then stated again, and that
// FileInfo returned: it describes the file whose bytes are sent, which a
// rename after the first stat may have replaced.
func (s *Server) openFile(name string) (f fs.File, fi fs.FileInfo, err error) {
	if s.FS == nil {
		return nil, nil, fs.ErrNotExist
	}
	if sfs, ok := s.FS.(fs.StatFS); ok {
		fi, err := sfs.Stat(name)
		switch {
		case err != nil:
			return nil, nil, err
		case fi.IsDir():
			return nil, fi, nil
		case !fi.Mode().IsRegular():
			return nil, nil, fs.ErrNotExist
		}
	}
	if f, err = s.FS.Open(name); err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil && fi.Mode().IsRegular() {
		return f, fi, nil
	}
	f.Close()
	switch {
	case err != nil:
		return nil, nil, err
	case fi.IsDir():
		return nil, fi, nil
	}
	return nil, nil, fs.ErrNotExist
}

// fail answers an error from the file system: 404 for a name that does
// not exist or cannot (notFound), 403, or 500 (logged).
func (s *Server) fail(c *brisk.Ctx, name string, err error) {
	switch {
	case notFound(err):
		answerError(&c.Response, 404)
	case errors.Is(err, fs.ErrPermission):
		answerError(&c.Response, 403)
	default:
		c.Logger().Error("files: opening a file failed", "name", name, "err", err)
		answerError(&c.Response, 500)
	}
}

// notFound reports whether err says that a name does not exist or cannot:
// missing, invalid, longer than the file system allows (ENAMETOOLONG),
// refused by os.Root as an escape, a file used as a directory, or a link
// loop. Server answers such names 404.
func notFound(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) ||
		errors.Is(err, syscall.ENAMETOOLONG) || errors.Is(err, syscall.ENOTDIR) ||
		errors.Is(err, syscall.ELOOP) || isRootEscape(err)
}

// isRootEscape reports the error os.Root gives a name that would resolve
// outside it. os does not export it; its text is matched, and
// TestFileRootConfined fails if it changes.
func isRootEscape(err error) bool {
	for err != nil {
		if err.Error() == "path escapes from parent" {
			return true
		}
		err = errors.Unwrap(err)
	}
	return false
}

// redirectToDir answers a directory path without its trailing "/" with a
// 301 to the path with it, as a relative reference to its last element.
func redirectToDir(c *brisk.Ctx) {
	loc := "./"
	if base := path.Base(string(c.Request.Path())); base != "/" {
		loc += url.PathEscape(base) + "/"
	}
	if q := c.Request.Query(); q != nil {
		loc += "?" + string(q)
	}
	answerError(&c.Response, 301)
	c.Response.Header.Set("Location", loc)
}

// serveDir answers a directory path: its index file, else its listing
// (when enabled), else 404.
func (s *Server) serveDir(c *brisk.Ctx, name string) {
	index := s.Index
	if index == "" {
		index = "index.html"
	}
	iname := path.Join(name, index)
	f, fi, err := s.openFile(iname)
	switch {
	case f != nil:
		defer f.Close()
		s.serveFile(c, iname, f, fi)
	case err != nil && !notFound(err):
		s.fail(c, iname, err)
	case !s.Listing:
		answerError(&c.Response, 404)
	default:
		s.list(c, name)
	}
}

// serveFile answers a regular file, or its precompressed sibling: from a
// new cache entry when it is small enough.
func (s *Server) serveFile(c *brisk.Ctx, name string, f fs.File, fi fs.FileInfo) {
	if e := s.fill(c, name, f, fi); e != nil && s.serveCached(c, e, f) {
		return
	}
	if s.Precompressed && s.servePrecompressed(c, name) {
		return
	}
	var tag [64]byte
	if rep, ok := s.describe(c, name, f, fi, tag[:0]); ok {
		serveRepresentation(c, &rep, s.MaxRanges)
	}
}

// describe returns the representation of the file f, its ETag appended
// to tag; ok is false (the response set to 500) when f cannot be served.
func (s *Server) describe(c *brisk.Ctx, name string, f fs.File, fi fs.FileInfo, tag []byte) (rep representation, ok bool) {
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		c.Logger().Error("files: file does not implement io.Seeker", "name", name)
		answerError(&c.Response, 500)
		return rep, false
	}
	rep = representation{name: name, content: rs, size: fi.Size(), modtime: fi.ModTime(), stamp: stampOf(fi), tails: &s.tails}
	if rep.hasModTime() {
		rep.etag = sizeModTimeETag(tag, rep.size, rep.modtime)
		return rep, true
	}
	etag, err := s.contentETag(name, rs, rep.size)
	if err != nil {
		c.Logger().Error("files: reading a file failed", "name", name, "err", err)
		answerError(&c.Response, 500)
		return rep, false
	}
	rep.etag = append(tag, etag...)
	return rep, true
}

// contentETag returns the content-hash ETag of a file without a
// modification time (embedded files): computed once per name and size,
// then cached for the life of the Server, such file systems being
// taken as immutable. It leaves rs at its start.
func (s *Server) contentETag(name string, rs io.ReadSeeker, size int64) (string, error) {
	if e, ok := s.hashes.Load(name); ok && e.(*hashEntry).size == size {
		return e.(*hashEntry).etag, nil
	}
	etag, err := hashETag(rs)
	if err == nil {
		_, err = rs.Seek(0, io.SeekStart)
	}
	if err != nil {
		return "", err
	}
	s.hashes.Store(name, &hashEntry{size: size, etag: etag})
	return etag, nil
}

// servePrecompressed answers with the sibling of name the client accepts
// best and reports whether there was one. When there is none, the caller
// sends the identity, even to a client that ruled it out (see
// Server.Precompressed).
func (s *Server) servePrecompressed(c *brisk.Ctx, name string) bool {
	var buf [accept.MaxOffers]int
	for _, i := range codingOrder(c, &buf) {
		if s.serveSibling(c, name, i) {
			return true
		}
	}
	return false
}

// siblingType returns the media type of a precompressed sibling of name:
// that of name's extension, else application/octet-stream, as encoded
// bytes cannot be sniffed.
func siblingType(name string) string {
	if t := TypeByExtension(name); t != "" {
		return t
	}
	return "application/octet-stream"
}

// codingOrder returns the indexes in precompressed of the codings the
// request's Accept-Encoding prefers to identity, best first (see
// accept.Order), in buf.
func codingOrder(c *brisk.Ctx, buf *[accept.MaxOffers]int) []int {
	var values [4][]byte
	vs := values[:0]
	for v := range c.Request.Header.Values("Accept-Encoding") {
		vs = append(vs, v)
	}
	return accept.Order(vs, precompressedCodings, buf)
}

// serveSibling answers with the sibling of name for precompressed[i] and
// reports whether it exists as a regular file.
func (s *Server) serveSibling(c *brisk.Ctx, name string, i int) bool {
	p := precompressed[i]
	sname := name + p.ext
	f, fi, err := s.openFile(sname)
	if err != nil || f == nil {
		return false
	}
	defer f.Close()
	var tag [64]byte
	rep, ok := s.describe(c, sname, f, fi, tag[:0])
	if !ok {
		return true // answered 500
	}
	rep.name, rep.coding = name, p.coding
	rep.etag = encodedETag(rep.etag, p.coding)
	rep.ctype = siblingType(name)
	serveRepresentation(c, &rep, s.MaxRanges)
	return true
}
