//go:build !race

package files

import (
	"testing"
	"testing/fstest"
)

// TestFileCacheAllocs: a request answered from the cache of small files
// does not allocate: a 1 KiB file whole, a range of it, a 304, and a
// precompressed sibling chosen by Accept-Encoding.
func TestFileCacheAllocs(t *testing.T) {
	data := make([]byte, 1024)
	for i := range data {
		data[i] = 'a' + byte(i%26)
	}
	mfs := fstest.MapFS{
		"f.txt":    {Data: data, ModTime: fileModTime},
		"f.txt.gz": {Data: []byte("GZ"), ModTime: fileModTime},
	}
	etag := sizeModTimeETag(nil, 1024, fileModTime)
	for _, tc := range []struct {
		name, req string
		fsrv      *Server
	}{
		{"get_1k", "GET /f.txt HTTP/1.1\r\nHost: x\r\n\r\n", &Server{FS: mfs}},
		{"range", "GET /f.txt HTTP/1.1\r\nHost: x\r\nRange: bytes=10-99\r\n\r\n", &Server{FS: mfs}},
		{"not_modified", "GET /f.txt HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + string(etag) + "\r\n\r\n", &Server{FS: mfs}},
		{"precompressed", "GET /f.txt HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br\r\n\r\n",
			&Server{FS: mfs, Precompressed: true, Nosniff: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			step := stepServer(t, []byte(tc.req), tc.fsrv.Handle)
			step()
			step()
			if n := testing.AllocsPerRun(200, func() { step() }); n != 0 {
				t.Fatalf("%v allocs per request, want 0", n)
			}
		})
	}
}
