package site

import (
	"embed"
	"fmt"
	"io/fs"
	"os"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
)

// embedded holds index.html and the files served under /static/.
//
//go:embed files
var embedded embed.FS

// staticFiles serves /static/ with files.Server: the embedded files
// (with content-hash ETags) or, when root is set, that directory, streamed
// from disk. Names that are not valid io/fs paths, hold a backslash or
// NUL, or have an element starting with "." are answered 404; os.Root
// refuses whatever would still leave the directory, symbolic links
// included.
type staticFiles struct {
	files *files.Server
	root  *os.Root // Config.Root; nil for the embedded files
}

// newStaticFiles opens dir with os.Root, or serves the embedded files
// when dir is "". With precompressed, a file's .zst, .br or .gz sibling
// is served to a client that accepts its coding.
func newStaticFiles(dir string, precompressed bool) (staticFiles, error) {
	st := staticFiles{files: &files.Server{Prefix: "/static/", Nosniff: true, Precompressed: precompressed}}
	if dir == "" {
		sub, err := fs.Sub(embedded, "files/static")
		st.files.FS = sub
		return st, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return staticFiles{}, fmt.Errorf("open root: %w", err)
	}
	st.root, st.files.FS = root, root.FS()
	return st, nil
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

// serve answers a /static/ path.
func (st staticFiles) serve(c *brisk.Ctx) { st.files.Handle(c) }
