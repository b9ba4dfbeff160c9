package brisk

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"
)

// fileGetter serves a FileServer in memory and returns a function that
// GETs a path (with extra fields) and returns the status and body.
func fileGetter(t *testing.T, fsrv *FileServer) func(target string, fields ...string) (int, string) {
	ts := startServer(t, "inmemory", &Server{Handler: fsrv.Handle})
	cl := ts.connect()
	return func(target string, fields ...string) (int, string) {
		t.Helper()
		cl.t = t
		resp, body := cl.roundTrip(req(target, fields...) + "\r\n")
		return resp.StatusCode, body
	}
}

func expectFile(t *testing.T, get func(string, ...string) (int, string), target string, status int, body string, fields ...string) {
	t.Helper()
	if code, got := get(target, fields...); code != status || got != body {
		t.Fatalf("GET %s %q: %d %q, want %d %q", target, fields, code, got, status, body)
	}
}

// TestFileCacheChanges: with CacheCheck negative, a cached file that is
// rewritten, replaced, grown, removed or recreated is answered as it is
// on disk at each request.
func TestFileCacheChanges(t *testing.T) {
	root, dir := rootDir(t)
	fsrv := &FileServer{FS: root.FS(), CacheCheck: -1}
	get := fileGetter(t, fsrv)
	name := filepath.Join(dir, "f.txt")
	write := func(data string, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	write("one", t0)
	expectFile(t, get, "/f.txt", 200, "one")
	expectFile(t, get, "/f.txt", 200, "one") // from the cache
	write("two", t0.Add(time.Second))        // same size, new mtime
	expectFile(t, get, "/f.txt", 200, "two")
	tmp := filepath.Join(dir, "new.tmp")
	os.WriteFile(tmp, []byte("three"), 0o644)
	if err := os.Rename(tmp, name); err != nil { // replaced
		t.Fatal(err)
	}
	expectFile(t, get, "/f.txt", 200, "three")
	f, _ := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("+grown")
	f.Close()
	expectFile(t, get, "/f.txt", 200, "three+grown")
	os.Remove(name)
	expectFile(t, get, "/f.txt", 404, "Not Found\n")
	write("back", t0)
	expectFile(t, get, "/f.txt", 200, "back")
}

// TestFileCacheCheck: a change is not seen before CacheCheck has passed
// since the last check (the cache answers), and is seen after it.
func TestFileCacheCheck(t *testing.T) {
	root, dir := rootDir(t)
	check := 50 * time.Millisecond
	get := fileGetter(t, &FileServer{FS: root.FS(), CacheCheck: check})
	expectFile(t, get, "/in.txt", 200, "inside")
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("changed"), 0o644)
	start := time.Now()
	code, body := get("/in.txt")
	if time.Since(start) < check/2 && (code != 200 || body != "inside") {
		t.Fatalf("within CacheCheck: %d %q, want the cached \"inside\"", code, body)
	}
	time.Sleep(check + 10*time.Millisecond)
	expectFile(t, get, "/in.txt", 200, "changed")
}

// TestFileCacheConfined: a cached file whose link is made to point out of
// the os.Root is refused at the next check, as the uncached path refuses
// it; so is one replaced by a named pipe or a directory.
func TestFileCacheConfined(t *testing.T) {
	root, dir := rootDir(t)
	get := fileGetter(t, &FileServer{FS: root.FS(), CacheCheck: -1})
	link := filepath.Join(dir, "link.txt")
	expectFile(t, get, "/link.txt", 200, "inside")
	os.Remove(link)
	if err := os.Symlink("abs.txt", link); err != nil { // abs.txt points outside
		t.Fatal(err)
	}
	expectFile(t, get, "/link.txt", 404, "Not Found\n")

	in := filepath.Join(dir, "in.txt")
	expectFile(t, get, "/in.txt", 200, "inside")
	os.Remove(in)
	os.Mkdir(in, 0o755)
	expectFile(t, get, "/in.txt", 301, "Moved Permanently\n")
	expectFile(t, get, "/in.txt/", 404, "Not Found\n")
}

// TestFileCacheSiblings: a precompressed sibling that appears or goes
// away is noticed at the next check.
func TestFileCacheSiblings(t *testing.T) {
	root, dir := rootDir(t)
	get := fileGetter(t, &FileServer{FS: root.FS(), CacheCheck: -1, Precompressed: true})
	gz := filepath.Join(dir, "in.txt.gz")
	expectFile(t, get, "/in.txt", 200, "inside", "Accept-Encoding: gzip")
	os.WriteFile(gz, []byte("GZ"), 0o644)
	expectFile(t, get, "/in.txt", 200, "GZ", "Accept-Encoding: gzip")
	expectFile(t, get, "/in.txt", 200, "inside", "Accept-Encoding: br")
	expectFile(t, get, "/in.txt", 406, "Not Acceptable\n", "Accept-Encoding: br, identity;q=0")
	os.Remove(gz)
	expectFile(t, get, "/in.txt", 200, "inside", "Accept-Encoding: gzip")
}

// TestFileCacheBounds: the cache holds at most CacheEntries paths and
// CacheBytes bytes, and never a file larger than MaxCachedFileSize.
func TestFileCacheBounds(t *testing.T) {
	mfs := fstest.MapFS{"big.bin": {Data: bytes.Repeat([]byte("b"), MaxCachedFileSize+1), ModTime: fileModTime}}
	for i := range 10 {
		mfs[fmt.Sprintf("%d.txt", i)] = &fstest.MapFile{Data: bytes.Repeat([]byte("x"), 1000), ModTime: fileModTime}
	}
	for _, tc := range []struct {
		name    string
		fsrv    *FileServer
		entries int
	}{
		{"entries", &FileServer{FS: mfs, CacheEntries: 3}, 3},
		{"bytes", &FileServer{FS: mfs, CacheBytes: 2 * (1000 + 6 + entryOverhead)}, 2},
		{"off", &FileServer{FS: mfs, CacheBytes: -1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			get := fileGetter(t, tc.fsrv)
			for i := range 10 {
				expectFile(t, get, fmt.Sprintf("/%d.txt", i), 200, string(mfs[fmt.Sprintf("%d.txt", i)].Data))
			}
			if code, body := get("/big.bin"); code != 200 || len(body) != MaxCachedFileSize+1 {
				t.Fatalf("big.bin: %d, %d bytes", code, len(body))
			}
			fc := tc.fsrv.cache()
			n, size := 0, int64(0)
			if fc != nil {
				n, size = len(fc.entries), fc.bytes
				if _, ok := fc.entries["/big.bin"]; ok {
					t.Error("big.bin cached")
				}
			}
			if n != tc.entries || size != int64(n)*(1000+6+entryOverhead) {
				t.Fatalf("%d entries, %d bytes; want %d entries", n, size, tc.entries)
			}
		})
	}
}
