//go:build unix

package files

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFileFIFO: a named pipe in the served directory is answered 404
// without being opened. Opening one blocks until a writer comes, which
// would hold the connection and an OS thread per request forever; as an
// index file or a precompressed sibling it is skipped the same way.
func TestFileFIFO(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"pipe", "d/index.html", "x.txt.gz"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "x.txt"), []byte("plain"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	nf := "Not Found\n"
	runFileCases(t, &Server{FS: root.FS(), Precompressed: true}, []fileCase{
		{"fifo", req("/pipe"), 404, nf, nil},
		{"fifo_index", req("/d/"), 404, nf, nil},
		{"fifo_sibling", req("/x.txt", "Accept-Encoding: gzip"), 200, "plain", map[string]string{"Content-Encoding": ""}},
	})
}
