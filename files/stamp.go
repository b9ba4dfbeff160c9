package files

import (
	"io"
	"io/fs"
	"sync"
	"time"

	"github.com/brisk-http/brisk"
)

// A file overwritten in place while it is sent must not go out with the
// validators of its old bytes (a torn response): the bytes are read from
// a descriptor stated when the validators were made, and before the last
// bytes of each section go out (sendChecked) the descriptor is stated
// again. If the
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

// tailAlign is a page: sendChecked holds back at least this many bytes,
// so that the bytes sent by sendfile before the check end on a page
// boundary of the file. Holding back one byte (a sendfile ending
// mid-page, then a 1-byte write) cost a 1 MiB response about a third
// more server CPU than sending it whole (bench/results/profiles.md).
const tailAlign = 4096

// tailBuf holds the bytes sendChecked holds back.
type tailBuf [2 * tailAlign]byte

// sendChecked sends n > 0 bytes of content, already at offset start, but
// holds back the last ones (at least tailAlign, so that what goes ahead
// ends on a page boundary; all when n is smaller) until st is seen to
// hold; errChanged when it does not (the held-back bytes are not sent).
// The buffer for them comes from tails, or is allocated when tails is nil.
func sendChecked(bw *brisk.BodyWriter, content io.Reader, start, n int64, st *fileStamp, tails *sync.Pool) (sent int64, err error) {
	tail := min(n, tailAlign+(start+n)%tailAlign)
	sent, err = bw.ReadFromN(content, n-tail)
	if err != nil || sent < n-tail {
		return sent, err
	}
	buf := takeTail(tails)
	defer putTail(tails, buf)
	last := buf[:tail]
	if got, err := io.ReadFull(content, last); err != nil {
		m, _ := bw.Write(last[:got]) // shrank: the bytes there are go, the caller reports it
		return sent + int64(m), bw.Err()
	}
	if !st.holds(content) {
		return sent, errChanged
	}
	m, err := bw.Write(last)
	return sent + int64(m), err
}

// takeTail returns a buffer from tails, or a new one.
func takeTail(tails *sync.Pool) *tailBuf {
	if tails != nil {
		if b, ok := tails.Get().(*tailBuf); ok {
			return b
		}
	}
	return new(tailBuf)
}

// putTail gives b back to tails, if not nil.
func putTail(tails *sync.Pool, b *tailBuf) {
	if tails != nil {
		tails.Put(b)
	}
}
