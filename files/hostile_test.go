package files

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestFileHostileRanges: thousands of ranges, each the whole file, get
// the whole file once, not thousands of copies.
func TestFileHostileRanges(t *testing.T) {
	whole := map[string]string{"Content-Length": "10", "Content-Range": ""}
	runFileCases(t, &Server{FS: testFS()}, []fileCase{
		{"thousands_whole", req("/d.txt", "Range: bytes="+strings.Repeat("0-,", 5000)+"0-"), 200, fileDigits, whole},
		{"thousands_small", req("/d.txt", "Range: bytes="+strings.Repeat("1-1,", 5000)+"1-1"), 200, fileDigits, whole},
		{"sixteen_disjoint", req("/d.txt", "Range: bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8,9-9"), 206, "*", nil},
	})
}

// TestFileHostileETagList: a 30 KB If-None-Match list is scanned to its
// end; the match at the end counts.
func TestFileHostileETagList(t *testing.T) {
	list := strings.Repeat(`"0123456789abcdef0123", W/"x", `, 1000)
	runFileCases(t, &Server{FS: testFS()}, []fileCase{
		{"no_match", req("/d.txt", "If-None-Match: "+list+`"y"`), 200, fileDigits, nil},
		{"match_last", req("/d.txt", "If-None-Match: "+list+fileETag), 304, "", nil},
		{"unterminated", req("/d.txt", "If-None-Match: "+list+`"`+strings.Repeat("a", 1000)), 200, fileDigits, nil},
	})
}

// rootDir creates a directory with a file, a symbolic link inside it, one
// pointing out of it and one to an absolute path, and returns its os.Root.
func rootDir(t *testing.T) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "in.txt"), []byte("inside"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644))
	must(os.Symlink("in.txt", filepath.Join(dir, "link.txt")))
	must(os.Symlink("../"+filepath.Base(outside)+"/secret.txt", filepath.Join(dir, "escape.txt")))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "abs.txt")))
	must(os.Symlink(outside, filepath.Join(dir, "outdir")))
	root, err := os.OpenRoot(dir)
	must(err)
	t.Cleanup(func() { root.Close() })
	return root, dir
}

// TestFileRootConfined: through os.Root no name reaches outside the
// directory, by "..", symbolic links or escapes; links inside it work.
func TestFileRootConfined(t *testing.T) {
	root, _ := rootDir(t)
	nf := "Not Found\n"
	runFileCases(t, &Server{FS: root.FS()}, []fileCase{
		{"file", req("/in.txt"), 200, "inside", nil},
		{"link_inside", req("/link.txt"), 200, "inside", nil},
		{"link_escape", req("/escape.txt"), 404, nf, nil},
		{"link_absolute", req("/abs.txt"), 404, nf, nil},
		{"link_dir_outside", req("/outdir/secret.txt"), 404, nf, nil},
		{"dotdot", req("/../in.txt"), 200, "inside", nil}, // Path cannot climb above "/"
		{"dotdot_escaped", req("/%2e%2e/secret.txt"), 404, nf, nil},
		{"encoded_slash", req("/..%2fsecret.txt"), 404, nf, nil},
		{"nul", req("/in.txt%00"), 404, nf, nil},
	})
}

// TestFileSendfile downloads a 3 MiB file, whole and in ranges, over TCP
// (the sendfile path) and compares the bytes with the file on disk.
func TestFileSendfile(t *testing.T) {
	dir := t.TempDir()
	data := make([]byte, 3<<20+17)
	for i := range data {
		data[i] = byte(i*7 + i>>11)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ts := startServer(t, "tcp", &brisk.Server{Handler: (&Server{FS: root.FS()}).Handle})
	cl := ts.connect()
	for _, tc := range []struct {
		rng  string
		want []byte
	}{
		{"", data},
		{"Range: bytes=1000-2999999", data[1000:3000000]},
		{"Range: bytes=-5", data[len(data)-5:]},
		{"", data}, // the connection is still in step
	} {
		var fields []string
		if tc.rng != "" {
			fields = append(fields, tc.rng)
		}
		resp, body := cl.roundTrip(req("/big.bin", fields...) + "\r\n")
		if resp.StatusCode/100 != 2 || !bytes.Equal([]byte(body), tc.want) {
			t.Fatalf("%q: status %d, %d bytes, want %d equal bytes", tc.rng, resp.StatusCode, len(body), len(tc.want))
		}
	}
}

// shrinkFS truncates each file to half its size right after its first
// Stat: the file shrinks while it is being served.
type shrinkFS struct{ dir string }

func (s shrinkFS) Open(name string) (fs.File, error) {
	f, err := os.Open(filepath.Join(s.dir, name))
	if err != nil {
		return nil, err
	}
	return &shrinkFile{File: f}, nil
}

type shrinkFile struct {
	*os.File
	shrunk bool
}

func (f *shrinkFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err == nil && fi.Mode().IsRegular() && !f.shrunk {
		f.shrunk = true
		err = os.Truncate(f.Name(), fi.Size()/2)
	}
	return fi, err
}

// TestFileShrinks: a file that shrinks while it is sent is never padded:
// the body ends short of its Content-Length and the connection is closed,
// over TCP (sendfile), in memory, and for a file small enough to be
// copied into the write buffer.
func TestFileShrinks(t *testing.T) {
	for _, size := range []int{1000, 1 << 20} {
		forTransports(t, func(t *testing.T, transport string) {
			dir := t.TempDir()
			data := bytes.Repeat([]byte("abcdefgh"), size/8)
			os.WriteFile(filepath.Join(dir, "f.txt"), data, 0o644)
			ts := startServer(t, transport, &brisk.Server{Handler: (&Server{FS: shrinkFS{dir}}).Handle})
			cl := ts.connect()
			cl.send(req("/f.txt") + "\r\n")
			resp, err := http.ReadResponse(cl.br, nil)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			if err != io.ErrUnexpectedEOF || resp.ContentLength != int64(size) || !bytes.Equal(body, data[:size/2]) {
				t.Fatalf("Content-Length %d, read %d bytes, %v; want %d, %d bytes, unexpected EOF",
					resp.ContentLength, len(body), err, size, size/2)
			}
			cl.nc.SetReadDeadline(time.Now().Add(time.Second))
			if n, err := cl.br.Read(make([]byte, 1)); n != 0 || err == nil {
				t.Fatalf("connection open after a short body")
			}
		})
	}
}

// errorLog counts the records logged at error level.
type errorLog struct{ n atomic.Int32 }

func (l *errorLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *errorLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *errorLog) WithGroup(string) slog.Handler            { return l }
func (l *errorLog) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		l.n.Add(1)
	}
	return nil
}

// TestFileClientGone: a client that goes away during a download is not
// logged as an error; the server keeps serving.
func TestFileClientGone(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, 8<<20), 0o644)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var log errorLog
	ts := startServer(t, "tcp", &brisk.Server{Handler: (&Server{FS: root.FS()}).Handle, Logger: slog.New(&log)})
	for range 3 {
		cl := ts.connect()
		cl.send(req("/big.bin") + "\r\n")
		if _, err := cl.br.Peek(100); err != nil {
			t.Fatal(err)
		}
		cl.nc.(*net.TCPConn).SetLinger(0) // reset: the server's writes fail at once
		cl.nc.Close()
	}
	cl := ts.connect()
	if resp, body := cl.roundTrip(req("/big.bin") + "\r\n"); resp.StatusCode != 200 || len(body) != 8<<20 {
		t.Fatalf("after the resets: %d, %d bytes", resp.StatusCode, len(body))
	}
	if n := log.n.Load(); n != 0 {
		t.Fatalf("%d errors logged for clients that went away", n)
	}
}

// TestFileNameTooLong: a name longer than the file system allows (one
// element of 300 bytes: ENAMETOOLONG on Linux, whose limit is 255) cannot
// exist and is answered 404 like any missing file, as a file, a directory,
// a directory's part and a precompressed file's sibling, through os.Root
// and os.DirFS. It used to be answered 500.
func TestFileNameTooLong(t *testing.T) {
	root, dir := rootDir(t)
	long := strings.Repeat("n", 300)
	// 253 bytes: the file fits, its ".br" and ".zst" siblings do not.
	edge := strings.Repeat("e", 253)
	if err := os.WriteFile(filepath.Join(dir, edge), []byte("edge"), 0o644); err != nil {
		t.Fatal(err)
	}
	nf := "Not Found\n"
	cases := []fileCase{
		{"file", req("/" + long), 404, nf, nil},
		{"file_ext", req("/" + long + ".txt"), 404, nf, nil},
		{"dir", req("/" + long + "/"), 404, nf, nil},
		{"element", req("/" + long + "/in.txt"), 404, nf, nil},
		{"sibling", req("/"+edge, "Accept-Encoding: br, zstd, gzip"), 200, "edge", nil},
		{"still_serves", req("/in.txt"), 200, "inside", nil},
	}
	for _, fsys := range []struct {
		name string
		fs   fs.FS
	}{{"root", root.FS()}, {"dirfs", os.DirFS(dir)}} {
		t.Run(fsys.name, func(t *testing.T) {
			runFileCases(t, &Server{FS: fsys.fs, Precompressed: true, Index: long}, cases)
			runFileCases(t, &Server{FS: fsys.fs, Index: long, Listing: true},
				[]fileCase{{"index", req("/"), 200, "*", nil}})
		})
	}
}
