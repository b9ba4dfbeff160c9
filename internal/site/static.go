package site

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/brisk-http/brisk"
)

// embedded holds index.html and the files served under /static/.
//
//go:embed files
var embedded embed.FS

// staticFiles serves /static/: from memory (the embedded files, loaded once
// by New) or, when root is set, from that directory.
type staticFiles struct {
	mem  map[string]staticFile // by name under /static/; nil when root is set
	root *os.Root              // Config.Root; nil for the embedded files
}

// staticFile is one embedded file, ready to send.
type staticFile struct {
	body        []byte
	contentType string
}

// newStaticFiles opens dir with os.Root, which refuses any name (including
// through a symbolic link) that resolves outside it, or loads the embedded
// files when dir is "".
func newStaticFiles(dir string) (staticFiles, error) {
	if dir == "" {
		mem, err := loadEmbedded()
		return staticFiles{mem: mem}, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return staticFiles{}, fmt.Errorf("open root: %w", err)
	}
	return staticFiles{root: root}, nil
}

// loadEmbedded reads every embedded file under files/static into memory.
func loadEmbedded() (map[string]staticFile, error) {
	sub, err := fs.Sub(embedded, "files/static")
	if err != nil {
		return nil, err
	}
	mem := make(map[string]staticFile)
	err = fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(sub, name)
		mem[name] = staticFile{body: body, contentType: contentType(name)}
		return err
	})
	return mem, err
}

// indexHTML returns the embedded home page.
func indexHTML() ([]byte, error) { return embedded.ReadFile("files/index.html") }

// Close releases the root directory, if any.
func (st staticFiles) Close() error {
	if st.root == nil {
		return nil
	}
	return st.root.Close()
}

// serve answers the file name (relative to /static/), or 404.
func (st staticFiles) serve(c *brisk.Ctx, name []byte) Sent {
	if st.root == nil {
		f, ok := st.mem[string(name)]
		if !ok {
			notFound(c)
			return Sent{}
		}
		c.Response.Header.Set("Content-Type", f.contentType)
		c.Response.Header.Set("X-Content-Type-Options", "nosniff")
		c.Response.SetBody(f.body)
		return Sent{}
	}
	return st.serveRoot(c, string(name))
}

// serveRoot answers a regular file of the root directory, streamed from
// disk with its size as Content-Length (see streamFile). Names that are
// not valid io/fs paths ("..", empty or "." elements, a leading or
// trailing slash), that hold a backslash or NUL, or that have an element
// starting with '.' are answered 404 before the file system is asked;
// os.Root then refuses whatever would still leave the directory, symbolic
// links included.
func (st staticFiles) serveRoot(c *brisk.Ctx, name string) Sent {
	if !validName(name) {
		notFound(c)
		return Sent{}
	}
	f, size, err := openRegular(st.root, name)
	if err != nil {
		notFound(c)
		return Sent{}
	}
	defer f.Close()
	c.Response.Header.Set("Content-Type", contentType(name))
	c.Response.Header.Set("X-Content-Type-Options", "nosniff")
	c.Response.Header.Set("Content-Length", strconv.FormatInt(size, 10))
	if string(c.Request.Method()) == "HEAD" {
		return Sent{}
	}
	return streamFile(c.BodyWriter(), f, size)
}

// openRegular opens name under root and returns it with its size, or
// fs.ErrNotExist when it is not a regular file.
func openRegular(root *os.Root, name string) (*os.File, int64, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fs.ErrNotExist
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// streamFile copies the first size bytes of f to w, the body of a
// response whose Content-Length is size, and reports how many reached
// the connection. Each piece (32 KiB, io.Copy's buffer) is a write of its
// own under the server's WriteTimeout, so the timeout bounds the wait for
// one piece, not the whole body. A file shorter than size ends the stream
// with io.ErrUnexpectedEOF; then, as after a failed write, the server
// closes the connection with the body incomplete.
func streamFile(w *brisk.BodyWriter, f io.Reader, size int64) Sent {
	cw := &flushCounter{w: w}
	_, err := io.CopyN(cw, f, size)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err == nil {
		err = w.Flush() // the head, for an empty file
	}
	return Sent{Streamed: true, Bytes: cw.n, Err: err}
}

// flushCounter writes to a BodyWriter and flushes each write, so that n
// counts the bytes the connection accepted: a write that fails is not
// counted.
type flushCounter struct {
	w *brisk.BodyWriter
	n int64
}

func (fc *flushCounter) Write(p []byte) (int, error) {
	if _, err := fc.w.Write(p); err != nil {
		return 0, err
	}
	if err := fc.w.Flush(); err != nil {
		return 0, err
	}
	fc.n += int64(len(p))
	return len(p), nil
}

// validName reports whether name may be looked up under the root.
func validName(name string) bool {
	if !fs.ValidPath(name) || name == "." || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	for elem := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(elem, ".") {
			return false
		}
	}
	return true
}
