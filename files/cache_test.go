package files

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/brisk-http/brisk"
)

// fileGetter serves a Server in memory and returns a function that
// GETs a path (with extra fields) and returns the status and body.
func fileGetter(t *testing.T, fsrv *Server) func(target string, fields ...string) (int, string) {
	ts := startServer(t, "inmemory", &brisk.Server{Handler: fsrv.Handle})
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
	fsrv := &Server{FS: root.FS(), CacheCheck: -1}
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
	get := fileGetter(t, &Server{FS: root.FS(), CacheCheck: check})
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
	get := fileGetter(t, &Server{FS: root.FS(), CacheCheck: -1})
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
	get := fileGetter(t, &Server{FS: root.FS(), CacheCheck: -1, Precompressed: true})
	gz := filepath.Join(dir, "in.txt.gz")
	expectFile(t, get, "/in.txt", 200, "inside", "Accept-Encoding: gzip")
	os.WriteFile(gz, []byte("GZ"), 0o644)
	expectFile(t, get, "/in.txt", 200, "GZ", "Accept-Encoding: gzip")
	expectFile(t, get, "/in.txt", 200, "inside", "Accept-Encoding: br")
	expectFile(t, get, "/in.txt", 200, "inside", "Accept-Encoding: br, identity;q=0")
	os.Remove(gz)
	expectFile(t, get, "/in.txt", 200, "inside", "Accept-Encoding: gzip")
}

// TestFileCacheBounds: the cache holds at most CacheEntries paths and
// CacheBytes bytes, and never a file larger than MaxCachedSize in
// memory.
func TestFileCacheBounds(t *testing.T) {
	mfs := fstest.MapFS{"big.bin": {Data: bytes.Repeat([]byte("b"), MaxCachedSize+1), ModTime: fileModTime}}
	for i := range 10 {
		mfs[fmt.Sprintf("%d.txt", i)] = &fstest.MapFile{Data: bytes.Repeat([]byte("x"), 1000), ModTime: fileModTime}
	}
	for _, tc := range []struct {
		name    string
		fsrv    *Server
		entries int
	}{
		{"entries", &Server{FS: mfs, CacheEntries: 3}, 3},
		{"bytes", &Server{FS: mfs, CacheBytes: 2 * (1000 + 6 + entryOverhead)}, 2},
		{"off", &Server{FS: mfs, CacheBytes: -1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			get := fileGetter(t, tc.fsrv)
			for i := range 10 {
				expectFile(t, get, fmt.Sprintf("/%d.txt", i), 200, string(mfs[fmt.Sprintf("%d.txt", i)].Data))
			}
			if code, body := get("/big.bin"); code != 200 || len(body) != MaxCachedSize+1 {
				t.Fatalf("big.bin: %d, %d bytes", code, len(body))
			}
			fc := tc.fsrv.cache()
			n, size, sum := 0, int64(0), int64(0)
			if fc != nil {
				n, size = len(fc.entries), fc.bytes
				for _, e := range fc.entries {
					cost := int64(len(e.key)) + entryOverhead
					for _, v := range e.variants {
						cost += int64(len(v.data))
						if len(v.data) > MaxCachedSize || v.streamed != (v.size > MaxCachedSize) {
							t.Errorf("%s: %d bytes in memory, streamed %v", v.name, len(v.data), v.streamed)
						}
					}
					if e.cost != cost {
						t.Errorf("%s: cost %d, want %d", e.key, e.cost, cost)
					}
					sum += cost
				}
			}
			if n != tc.entries || size != sum || (fc != nil && size > fc.maxBytes) {
				t.Fatalf("%d entries, %d bytes (entries add up to %d); want %d entries", n, size, sum, tc.entries)
			}
		})
	}
}

// TestFileCacheStreamed: a file larger than MaxCachedSize is cached
// without its bytes and streamed from kept open files; one replaced or
// removed is noticed at the next check and its open files are closed.
func TestFileCacheStreamed(t *testing.T) {
	root, dir := rootDir(t)
	fsrv := &Server{FS: root.FS(), CacheCheck: -1}
	get := fileGetter(t, fsrv)
	name := filepath.Join(dir, "big.txt")
	big := bytes.Repeat([]byte("0123456789abcdef"), MaxCachedSize/16+1)
	os.WriteFile(name, big, 0o644)
	for range 3 {
		expectFile(t, get, "/big.txt", 200, string(big))
	}
	expectFile(t, get, "/big.txt", 206, "89a", "Range: bytes=8-10")
	fc := fsrv.cache()
	if e := fc.entries["/big.txt"]; e == nil || !e.variants[0].streamed || len(e.variants[0].idle) != 1 || fc.idle.Load() != 1 {
		t.Fatalf("big.txt not cached as streamed with one idle file")
	}
	tmp := filepath.Join(dir, "big.tmp")
	os.WriteFile(tmp, big[1:], 0o644)
	os.Rename(tmp, name)
	expectFile(t, get, "/big.txt", 200, string(big[1:]))
	os.Remove(name)
	expectFile(t, get, "/big.txt", 404, "Not Found\n")
	if fc.idle.Load() != 0 || len(fc.entries) != 0 {
		t.Fatalf("%d idle files, %d entries after the removal, want 0", fc.idle.Load(), len(fc.entries))
	}
}

// TestFileCacheConcurrent: parallel clients over TCP get whole files and
// ranges, small and streamed, while the small one is rewritten; every
// body is one of the file's versions, whole (run it with -race).
func TestFileCacheConcurrent(t *testing.T) {
	root, dir := rootDir(t)
	small := [][]byte{[]byte("version one"), []byte("version two!")}
	big := bytes.Repeat([]byte("0123456789abcdef"), MaxCachedSize/8)
	os.WriteFile(filepath.Join(dir, "s.txt"), small[0], 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), big, 0o644)
	ts := startServer(t, "tcp", &brisk.Server{Handler: (&Server{FS: root.FS(), CacheCheck: time.Millisecond}).Handle})
	hc := &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		return ts.dial()
	}}}
	defer hc.CloseIdleConnections()
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() { // rewrite s.txt now and then
		defer close(stopped)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
				tmp := filepath.Join(dir, fmt.Sprintf("s%d.tmp", i))
				os.WriteFile(tmp, small[i%2], 0o644)
				os.Rename(tmp, filepath.Join(dir, "s.txt"))
			}
		}
	}()
	defer func() { close(stop); <-stopped }() // no file written while TempDir is removed
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				path, rng, want := "/b.txt", "", [][]byte{big}
				switch (g + i) % 3 {
				case 1:
					rng, want = "bytes=100-199", [][]byte{big[100:200]}
				case 2:
					path, want = "/s.txt", small
				}
				rq, _ := http.NewRequest("GET", "http://x"+path, nil)
				if rng != "" {
					rq.Header.Set("Range", rng)
				}
				resp, err := hc.Do(rq)
				if err != nil {
					errs <- err
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || !slices.ContainsFunc(want, func(w []byte) bool { return bytes.Equal(w, body) }) {
					errs <- fmt.Errorf("GET %s %s: %d, %d bytes, %v", path, rng, resp.StatusCode, len(body), err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestFileCacheCheckCoarse: with the default CacheCheck (1 s, on the
// brisk.Server's one-second clock) a change is noticed within two seconds.
func TestFileCacheCheckCoarse(t *testing.T) {
	t.Parallel()
	root, dir := rootDir(t)
	get := fileGetter(t, &Server{FS: root.FS()})
	expectFile(t, get, "/in.txt", 200, "inside")
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("changed"), 0o644)
	time.Sleep(2*time.Second + 200*time.Millisecond)
	expectFile(t, get, "/in.txt", 200, "changed")
}

// TestFileCacheReplacedSameStat: a cached file replaced by one of the same
// size, mode and modification time (a Nix store, cp -p, rsync -t) is
// answered as it is on disk at the next check.
func TestFileCacheReplacedSameStat(t *testing.T) {
	root, dir := rootDir(t)
	get := fileGetter(t, &Server{FS: root.FS(), CacheCheck: -1})
	name := filepath.Join(dir, "f.txt")
	t0 := time.Unix(1, 0) // as a Nix store sets every file's
	os.WriteFile(name, []byte("one"), 0o644)
	os.Chtimes(name, t0, t0)
	expectFile(t, get, "/f.txt", 200, "one")
	tmp := filepath.Join(dir, "f.tmp")
	os.WriteFile(tmp, []byte("two"), 0o644)
	os.Chtimes(tmp, t0, t0)
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
	expectFile(t, get, "/f.txt", 200, "two")
}

// TestFileCacheNotEnteredClosesFiles: an entry too costly to enter the
// cache (here CacheBytes is below one entry's overhead) keeps no open
// file of its streamed sibling after answering: it is closed, not kept
// for requests that will never find the entry.
func TestFileCacheNotEnteredClosesFiles(t *testing.T) {
	root, dir := rootDir(t)
	big := bytes.Repeat([]byte("z"), MaxCachedSize+1)
	os.WriteFile(filepath.Join(dir, "big.txt"), big, 0o644)
	os.WriteFile(filepath.Join(dir, "big.txt.gz"), big, 0o644)
	fsrv := &Server{FS: root.FS(), CacheBytes: 100, Precompressed: true}
	get := fileGetter(t, fsrv)
	for range 5 {
		expectFile(t, get, "/big.txt", 200, string(big), "Accept-Encoding: gzip")
	}
	if fc := fsrv.cache(); len(fc.entries) != 0 || fc.idle.Load() != 0 {
		t.Fatalf("%d entries, %d idle files; want 0 and 0", len(fc.entries), fc.idle.Load())
	}
}
