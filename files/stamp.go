package files

import (
	"io"
	"io/fs"
	"time"

	"github.com/brisk-http/brisk"
)

// A file overwritten in place while it is sent must not go out with the
// validators of its old bytes (a torn response): the bytes are read from
// a descriptor stated when the validators were made, and before the last
// byte of each section goes out the descriptor is stated again. If the
// file changed meanwhile the section is cut short, so the client sees an
// incomplete response (RFC 9112 §8) rather than a complete one whose
// ETag, Last-Modified and Content-Length describe other bytes.

// fileStamp is what the validators of a representation were made from:
// the size, mode and modification time of the file. Not its status
// change time, which an open file's rename or unlink changes without
// touching its bytes (a descriptor's inode cannot change). The zero
// fileStamp checks nothing.
type fileStamp struct {
	size    int64
	mode    fs.FileMode
	modtime time.Time
	ok      bool
}

// stampOf returns the stamp of fi.
func stampOf(fi fs.FileInfo) fileStamp {
	return fileStamp{size: fi.Size(), mode: fi.Mode(), modtime: fi.ModTime(), ok: true}
}

// stamp returns the stamp of v.
func (v *cachedFile) stamp() fileStamp {
	return fileStamp{size: v.size, mode: v.mode, modtime: v.modtime, ok: true}
}

// holds reports whether f, stated now, is still the file st describes;
// true when st checks nothing, false when f cannot be stated.
func (st *fileStamp) holds(f any) bool {
	if !st.ok {
		return true
	}
	sf, ok := f.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return true
	}
	fi, err := sf.Stat()
	return err == nil && fi.Size() == st.size && fi.Mode() == st.mode && fi.ModTime().Equal(st.modtime)
}

// sendChecked sends n > 0 bytes of content, already at the section's
// start, but holds back the last byte until st is seen to hold; errChanged
// when it does not (the last byte is not sent).
func sendChecked(bw *brisk.BodyWriter, content io.Reader, n int64, st *fileStamp) (sent int64, err error) {
	sent, err = bw.ReadFromN(content, n-1)
	if err != nil || sent < n-1 {
		return sent, err
	}
	var last [1]byte
	if _, err := io.ReadFull(content, last[:]); err != nil {
		return sent, nil // shrank: the caller reports it
	}
	if !st.holds(content) {
		return sent, errChanged
	}
	m, err := bw.Write(last[:])
	return sent + int64(m), err
}
