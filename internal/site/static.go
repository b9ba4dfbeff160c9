package site

import (
	"bytes"
	"embed"
	"errors"
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
// file is read whole into the response. A larger one is answered 500.
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

// cutStaticPrefix returns the file name of a /static/ path.
func cutStaticPrefix(path []byte) ([]byte, bool) {
	return bytes.CutPrefix(path, []byte("/static/"))
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
// refuses whatever would still leave the directory.
func (st staticFiles) serveRoot(c *brisk.Ctx, name string) {
	if !validName(name) {
		notFound(c)
		return
	}
	body, err := readRegular(st.root, name)
	switch {
	case errors.Is(err, errTooLarge):
		setText(c, 500, "500 file too large\n")
		return
	case err != nil:
		notFound(c)
		return
	}
	c.Response.Header.Set("Content-Type", contentType(name))
	c.Response.Header.Set("X-Content-Type-Options", "nosniff")
	c.Response.SetBody(body)
}

var errTooLarge = errors.New("site: file larger than MaxFileBytes")

// readRegular reads the whole regular file name of root.
func readRegular(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fs.ErrNotExist
	case fi.Size() > MaxFileBytes:
		return nil, errTooLarge
	}
	body := make([]byte, fi.Size())
	_, err = io.ReadFull(f, body)
	return body, err
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
