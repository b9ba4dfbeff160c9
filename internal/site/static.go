package site

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/brisk-http/brisk"
)

// embedded holds index.html and the files served under /static/.
//
//go:embed files
var embedded embed.FS

// MaxFileBytes is the largest file served from Config.Root, in bytes: the
// file is read whole into the buffered response body. A larger one is
// answered 500.
const MaxFileBytes = 64 << 20

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
func (st staticFiles) serve(c *brisk.Ctx, name []byte) {
	if st.root == nil {
		f, ok := st.mem[string(name)]
		if !ok {
			notFound(c)
			return
		}
		c.Response.Header.Set("Content-Type", f.contentType)
		c.Response.Header.Set("X-Content-Type-Options", "nosniff")
		c.Response.SetBody(f.body)
		return
	}
	st.serveRoot(c, string(name))
}

// serveRoot answers a regular file of the root directory. Names that are
// not valid io/fs paths ("..", empty or "." elements, a leading or trailing
// slash), that hold a backslash or NUL, or that have an element starting
// with '.' are answered 404 before the file system is asked; os.Root then
// refuses whatever would still leave the directory, symbolic links
// included.
func (st staticFiles) serveRoot(c *brisk.Ctx, name string) {
	if !validName(name) {
		notFound(c)
		return
	}
	f, size, err := openRegular(st.root, name)
	if err != nil {
		notFound(c)
		return
	}
	defer f.Close()
	if size > MaxFileBytes {
		setText(c, 500, "500 file too large\n")
		return
	}
	if err := readInto(&c.Response, f, size); err != nil {
		c.Response.Reset()
		setText(c, 500, "500 read error\n")
		return
	}
	c.Response.Header.Set("Content-Type", contentType(name))
	c.Response.Header.Set("X-Content-Type-Options", "nosniff")
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

// readInto appends the first size bytes of f to the response body, through
// a buffer on the stack (no per-request allocation once the response body
// buffer has grown). A file shorter than size is an error.
func readInto(dst *brisk.Response, f *os.File, size int64) error {
	var buf [16 << 10]byte
	for size > 0 {
		n, err := f.Read(buf[:min(size, int64(len(buf)))])
		dst.Write(buf[:n])
		size -= int64(n)
		if err == io.EOF && size > 0 {
			return io.ErrUnexpectedEOF
		}
		if err != nil && err != io.EOF {
			return err
		}
	}
	return nil
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
