package files

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/accept"
)

// Defaults of the Server's cache of files.
const (
	// DefaultCacheBytes is the default Server.CacheBytes: 16 MiB.
	DefaultCacheBytes = 16 << 20
	// DefaultCacheEntries is the default Server.CacheEntries.
	DefaultCacheEntries = 4096
	// DefaultCacheCheck is the default Server.CacheCheck.
	DefaultCacheCheck = time.Second
	// MaxCachedSize is the size, in bytes, of the largest file the
	// Server keeps in memory: 64 KiB. Of a larger file the cache
	// keeps the metadata and up to 4 open files (256 over the whole
	// cache), and streams the body from disk.
	MaxCachedSize = 64 << 10
)

// maxIdleFiles is the most open files a cached variant keeps for reuse;
// maxIdleTotal bounds them over the whole cache.
const (
	maxIdleFiles = 4
	maxIdleTotal = 256
)

// entryOverhead is what a cache entry is counted for beyond its key and
// file contents, in bytes.
const entryOverhead = 256

// fileCache maps request paths to the files they were answered with.
// Only a path the uncached path answered with a regular file is entered,
// so a hit needs none of its checks: the mapping from a path to a name
// depends on the Server's fields alone.
type fileCache struct {
	mu         sync.RWMutex
	entries    map[string]*cacheEntry
	bytes      int64 // sum of the entries' cost
	maxBytes   int64
	maxEntries int
	check      int64        // nanoseconds between checks; negative: every request
	idle       atomic.Int64 // open files kept by streamed variants
}

// cacheEntry is one request path's file and, with Precompressed, its
// siblings (the small ones read whole), and when they were last checked.
type cacheEntry struct {
	key      string
	cost     int64
	checked  atomic.Int64 // Unix nanoseconds of the last check
	variants [1 + len(precompressed)]cachedFile

	mu   sync.Mutex // guards dead and the variants' idle files
	dead bool       // out of the cache: its files are closed when released
}

// cachedFile is one variant of an entry: variants[0] is the file,
// variants[1+i] its sibling for precompressed[i], with an empty name when
// there is none.
type cachedFile struct {
	name     string // io/fs name of the bytes
	data     []byte // the bytes, unless streamed
	streamed bool   // larger than MaxCachedSize: read from disk
	idle     []fs.File
	size     int64
	mode     fs.FileMode
	modtime  time.Time
	id       fileID // device, inode and status change time, where known
	lastMod  []byte // modtime as an HTTP-date, nil when unknown
	etag     []byte
	ctype    string
	coding   string
}

// exists reports whether the variant is a file.
func (f *cachedFile) exists() bool { return f.name != "" }

// same reports whether fi has the size, mode, modification time and, where
// the system gives them, the device, inode and status change time of f.
func (f *cachedFile) same(fi fs.FileInfo) bool {
	return fi.Size() == f.size && fi.Mode() == f.mode && fi.ModTime().Equal(f.modtime) && idOf(fi) == f.id
}

// newFileCache returns the cache s's fields describe, or nil when off.
func newFileCache(s *Server) *fileCache {
	if s.CacheBytes < 0 || s.CacheEntries < 0 {
		return nil
	}
	c := &fileCache{
		entries:    make(map[string]*cacheEntry),
		maxBytes:   s.CacheBytes,
		maxEntries: s.CacheEntries,
		check:      int64(s.CacheCheck),
	}
	if c.maxBytes == 0 {
		c.maxBytes = DefaultCacheBytes
	}
	if c.maxEntries == 0 {
		c.maxEntries = DefaultCacheEntries
	}
	if c.check == 0 {
		c.check = int64(DefaultCacheCheck)
	}
	return c
}

// now returns the time entries are checked by, in Unix nanoseconds: for
// a check interval of a second or more, the brisk.Server's clock of
// one-second resolution (brisk.Ctx.CoarseNow; time.Now was 4% of the CPU
// time of a pipelined hit), else time.Now.
func (fc *fileCache) now(c *brisk.Ctx) int64 {
	if fc.check >= int64(time.Second) {
		return c.CoarseNow().UnixNano()
	}
	return time.Now().UnixNano()
}

// lookup returns the entry for the request path p, or nil.
func (c *fileCache) lookup(p []byte) *cacheEntry {
	c.mu.RLock()
	e := c.entries[string(p)]
	c.mu.RUnlock()
	return e
}

// add enters e, evicting arbitrary entries to stay within the bounds,
// unless e alone costs more than the cache holds: then it marks e dead,
// so that the files it opens are closed after use, and leaves it out.
func (c *fileCache) add(e *cacheEntry) {
	if e.cost > c.maxBytes {
		e.dead = true // e is not shared yet: no lock needed
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.entries[e.key]; old != nil {
		c.drop(old)
	}
	for _, old := range c.entries { // map order: an arbitrary victim
		if len(c.entries) < c.maxEntries && c.bytes+e.cost <= c.maxBytes {
			break
		}
		c.drop(old)
	}
	c.entries[e.key] = e
	c.bytes += e.cost
}

// remove takes e out of the cache, unless it was replaced already.
func (c *fileCache) remove(e *cacheEntry) {
	c.mu.Lock()
	if c.entries[e.key] == e {
		c.drop(e)
	}
	c.mu.Unlock()
}

// drop deletes e, in the cache, and closes its idle files; c.mu is held.
func (c *fileCache) drop(e *cacheEntry) {
	c.bytes -= e.cost
	delete(c.entries, e.key)
	e.mu.Lock()
	e.dead = true
	for i := range e.variants {
		v := &e.variants[i]
		for _, f := range v.idle {
			f.Close()
		}
		c.idle.Add(-int64(len(v.idle)))
		v.idle = v.idle[:0]
	}
	e.mu.Unlock()
}

// cache returns s's cache, nil when it is off.
func (s *Server) cache() *fileCache {
	s.cacheOnce.Do(func() { s.files = newFileCache(s) })
	return s.files
}

// cached returns the entry for the request's path if it is still valid:
// checked within CacheCheck, or found unchanged by a new check. One
// request checks a stale entry while the others still answer from it.
func (s *Server) cached(c *brisk.Ctx) *cacheEntry {
	fc := s.cache()
	if fc == nil {
		return nil
	}
	e := fc.lookup(c.Request.Path())
	if e == nil {
		return nil
	}
	now := fc.now(c)
	last := e.checked.Load()
	if fc.check >= 0 {
		if d := now - last; d >= 0 && d < fc.check {
			return e
		}
		if !e.checked.CompareAndSwap(last, now) {
			return e // another request is checking it
		}
	}
	if !s.unchanged(e) {
		fc.remove(e)
		return nil
	}
	return e
}

// unchanged stats each variant of e and reports whether all still exist
// as the same regular files (size, modification time and mode) and no
// sibling appeared. An error counts as a change: the uncached path then
// answers it.
func (s *Server) unchanged(e *cacheEntry) bool {
	base := e.variants[0].name
	for i := range e.variants {
		if i > 0 && !s.Precompressed {
			break
		}
		v := &e.variants[i]
		name := base
		if i > 0 {
			name += precompressed[i-1].ext
		}
		fi, err := fs.Stat(s.FS, name)
		switch {
		case err != nil && !v.exists() && notFound(err):
		case err != nil:
			return false
		case !fi.Mode().IsRegular():
			if v.exists() || i == 0 {
				return false
			}
		case !v.exists() || !v.same(fi):
			return false
		}
	}
	return true
}

// fill describes the regular file name (open as f) and, with
// Precompressed, its siblings in a new entry for the request's path, read
// into memory when small, and enters it. It returns nil, leaving f at its
// start, when the cache is off or a file changes size while read, fails,
// or is large without a modification time: the uncached path then
// answers.
func (s *Server) fill(c *brisk.Ctx, name string, f fs.File, fi fs.FileInfo) *cacheEntry {
	fc := s.cache()
	if fc == nil {
		return nil
	}
	e := &cacheEntry{}
	now := fc.now(c)
	ok := describeVariant(&e.variants[0], name, f, fi)
	if rs, seeker := f.(io.Seeker); !ok && seeker {
		rs.Seek(0, io.SeekStart) // a failure shows again on the uncached path
	}
	if !ok || (s.Precompressed && !s.fillSiblings(e)) {
		return nil
	}
	e.key = string(c.Request.Path())
	e.cost = int64(len(e.key)) + entryOverhead
	for i := range e.variants {
		e.cost += int64(len(e.variants[i].data))
	}
	e.checked.Store(now)
	fc.add(e)
	return e
}

// fillSiblings describes the precompressed siblings of e's file; false
// when one fails.
func (s *Server) fillSiblings(e *cacheEntry) bool {
	base := &e.variants[0]
	for i, p := range precompressed {
		v := &e.variants[1+i]
		f, fi, err := s.openFile(base.name + p.ext)
		switch {
		case notFound(err), err == nil && f == nil: // none, or a directory
			continue
		case err != nil:
			return false
		}
		ok := describeVariant(v, base.name+p.ext, f, fi)
		f.Close()
		if !ok {
			return false
		}
		v.etag = encodedETag(v.etag, p.coding)
		v.coding = p.coding
		v.ctype = siblingType(base.name)
	}
	return true
}

// describeVariant describes the regular file f in v: its validators,
// media type and, unless it is larger than MaxCachedSize, its bytes.
// It reports false when the bytes read are not the size fi gives, for a
// read error, and for a large file without a modification time (its
// ETag would be a hash of the whole).
func describeVariant(v *cachedFile, name string, f fs.File, fi fs.FileInfo) bool {
	v.name, v.size, v.mode, v.modtime, v.id = name, fi.Size(), fi.Mode(), fi.ModTime(), idOf(fi)
	rep := representation{modtime: v.modtime}
	v.streamed = v.size > MaxCachedSize
	switch {
	case v.streamed && !rep.hasModTime():
		return false
	case v.streamed:
		v.idle = make([]fs.File, 0, maxIdleFiles)
	default:
		data := make([]byte, v.size+1) // one more: a file that grew shows
		n, err := io.ReadFull(f, data)
		if int64(n) != v.size || (err != io.ErrUnexpectedEOF && err != io.EOF) {
			return false
		}
		v.data = data[:n:n]
		if st := v.stamp(); !st.holds(f) { // rewritten while read
			return false
		}
	}
	if rep.hasModTime() {
		v.etag = sizeModTimeETag(nil, v.size, v.modtime)
		v.lastMod = rep.appendLastModified(nil)
	} else {
		tag, _ := hashETag(bytes.NewReader(v.data)) // reading memory cannot fail
		v.etag = []byte(tag)
	}
	if v.ctype = TypeByExtension(name); v.ctype != "" {
		return true
	}
	if !v.streamed {
		v.ctype = http.DetectContentType(v.data[:min(len(v.data), sniffLen)])
		return true
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		return false
	}
	var err error
	v.ctype, err = sniffType(rs)
	return err == nil
}

// serveCached answers the request from e: the variant the client accepts
// best, else the file itself. A streamed variant is read from one of its
// idle files, else from own (the file of e's variants[0], open by the
// caller, or nil), else from a new one. It reports false, having answered
// nothing, when a new file is not the one cached: e is then evicted.
func (s *Server) serveCached(c *brisk.Ctx, e *cacheEntry, own fs.File) bool {
	v := &e.variants[0]
	if s.Precompressed {
		var buf [accept.MaxOffers]int
		for _, i := range codingOrder(c, &buf) {
			if e.variants[1+i].exists() {
				v = &e.variants[1+i]
				break
			}
		}
	}
	rep := representation{name: e.variants[0].name, data: v.data, size: v.size,
		modtime: v.modtime, lastMod: v.lastMod, etag: v.etag, coding: v.coding, ctype: v.ctype}
	if !v.streamed {
		serveRepresentation(c, &rep, s.MaxRanges)
		return true
	}
	if v != &e.variants[0] {
		own = nil
	}
	f := own
	if f == nil {
		if f = s.acquire(e, v); f == nil {
			return false
		}
	}
	rep.tails = &s.tails
	if rep.stamp = v.stamp(); !rep.stamp.holds(f) { // changed since checked
		if f != own {
			f.Close()
		}
		s.files.remove(e)
		return false
	}
	rep.content = f.(io.ReadSeeker) // acquire and describeVariant checked it
	serveRepresentation(c, &rep, s.MaxRanges)
	if f != own {
		s.release(e, v, f)
	}
	return true
}

// acquire returns an idle file of v, else opens it anew; nil when the new
// one is not the file cached (e is then evicted).
func (s *Server) acquire(e *cacheEntry, v *cachedFile) fs.File {
	e.mu.Lock()
	if n := len(v.idle); n > 0 {
		f := v.idle[n-1]
		v.idle = v.idle[:n-1]
		e.mu.Unlock()
		s.files.idle.Add(-1)
		return f
	}
	e.mu.Unlock()
	f, fi, err := s.openFile(v.name)
	if err == nil && f != nil {
		if _, seeker := f.(io.ReadSeeker); seeker && v.same(fi) {
			return f
		}
		f.Close()
	}
	s.files.remove(e)
	return nil
}

// release keeps f open for the next request for v, or closes it when v
// keeps enough, the cache as a whole does, or e is out of the cache.
func (s *Server) release(e *cacheEntry, v *cachedFile, f fs.File) {
	e.mu.Lock()
	if !e.dead && len(v.idle) < maxIdleFiles && s.files.idle.Load() < maxIdleTotal {
		v.idle = append(v.idle, f)
		e.mu.Unlock()
		s.files.idle.Add(1)
		return
	}
	e.mu.Unlock()
	f.Close()
}
