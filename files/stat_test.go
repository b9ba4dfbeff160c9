package files

import (
	"io/fs"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/brisk-http/brisk"
)

// countingFS counts the calls a Server makes to its file system:
// Stat by name (fs.StatFS), Open, and Stat of an open file.
type countingFS struct {
	fs                   fstest.MapFS
	stats, opens, fstats atomic.Int64
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.opens.Add(1)
	f, err := c.fs.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{f, c}, nil
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	c.stats.Add(1)
	return c.fs.Stat(name)
}

// countingFile is an open file of a countingFS.
type countingFile struct {
	fs.File
	c *countingFS
}

func (f *countingFile) Stat() (fs.FileInfo, error) {
	f.c.fstats.Add(1)
	return f.File.Stat()
}

func (f *countingFile) Read(p []byte) (int, error) { return f.File.Read(p) }

func (f *countingFile) Seek(off int64, whence int) (int64, error) {
	return f.File.(interface {
		Seek(int64, int) (int64, error)
	}).Seek(off, whence)
}

func (f *countingFile) ReadDir(n int) ([]fs.DirEntry, error) {
	return f.File.(fs.ReadDirFile).ReadDir(n)
}

// TestServerStats: without the cache, a file costs one stat by name
// (which refuses a named pipe before opening it), one open and one stat
// of the open file (which describes the file sent, should a rename have
// replaced it in between) and one more before the body's last byte (a
// file rewritten while sent is cut short); a directory is opened only
// to be listed.
func TestServerStats(t *testing.T) {
	for _, tc := range []struct {
		name, target         string
		listing              bool
		stats, opens, fstats int64
	}{
		{"file", "/d.txt", false, 1, 1, 2},
		{"missing", "/nope", false, 1, 0, 0},
		{"index", "/dir/", false, 2, 1, 2},
		{"redirect", "/dir", false, 1, 0, 0},
		{"no_index", "/list/", false, 2, 0, 0},
		{"listing", "/list/", true, 2, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfs := &countingFS{fs: testFS()}
			ts := startServer(t, "inmemory", &brisk.Server{Handler: (&Server{FS: cfs, CacheBytes: -1, Listing: tc.listing}).Handle})
			cl := ts.connect()
			const n = 3
			for range n {
				cl.roundTrip(req(tc.target) + "\r\n")
			}
			if s, o, f := cfs.stats.Load(), cfs.opens.Load(), cfs.fstats.Load(); s != n*tc.stats || o != n*tc.opens || f != n*tc.fstats {
				t.Errorf("per request: %d stats, %d opens, %d stats of open files; want %d, %d, %d",
					s/n, o/n, f/n, tc.stats, tc.opens, tc.fstats)
			}
		})
	}
}
