package brisk

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the FileServer's cache of small files.
const (
	// DefaultFileCacheBytes is the default FileServer.CacheBytes: 16 MiB.
	DefaultFileCacheBytes = 16 << 20
	// DefaultFileCacheEntries is the default FileServer.CacheEntries.
	DefaultFileCacheEntries = 4096
	// DefaultFileCacheCheck is the default FileServer.CacheCheck.
	DefaultFileCacheCheck = time.Second
	// MaxCachedFileSize is the size, in bytes, of the largest file the
	// FileServer keeps in memory: 64 KiB. Larger files are opened and
	// streamed for each request.
	MaxCachedFileSize = 64 << 10
)

// entryOverhead is what a cache entry is counted for beyond its key and
// file contents, in bytes.
const entryOverhead = 256

// fileCache maps request paths to the small files they were answered
// with. Only a path the uncached path answered with a regular file is
// entered, so a hit needs none of its checks: the mapping from a path to
// a name depends on the FileServer's fields alone.
type fileCache struct {
	mu         sync.RWMutex
	entries    map[string]*cacheEntry
	bytes      int64 // sum of the entries' cost
	maxBytes   int64
	maxEntries int
	check      int64 // nanoseconds between checks; negative: every request
}

// cacheEntry is one request path's file and, with Precompressed, its
// siblings, read whole, and when they were last checked.
type cacheEntry struct {
	key      string
	cost     int64
	checked  atomic.Int64 // Unix nanoseconds of the last check
	variants [1 + len(precompressed)]cachedFile
}

// cachedFile is one variant of an entry: variants[0] is the file,
// variants[1+i] its sibling for precompressed[i], with an empty name when
// there is none.
type cachedFile struct {
	name    string // io/fs name of the bytes
	data    []byte
	mode    fs.FileMode
	modtime time.Time
	lastMod []byte // modtime as an HTTP-date, nil when unknown
	etag    []byte
	ctype   string
	coding  string
}

// exists reports whether the variant is a file.
func (f *cachedFile) exists() bool { return f.name != "" }

// newFileCache returns the cache s's fields describe, or nil when off.
func newFileCache(s *FileServer) *fileCache {
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
		c.maxBytes = DefaultFileCacheBytes
	}
	if c.maxEntries == 0 {
		c.maxEntries = DefaultFileCacheEntries
	}
	if c.check == 0 {
		c.check = int64(DefaultFileCacheCheck)
	}
	return c
}

// lookup returns the entry for the request path p, or nil.
func (c *fileCache) lookup(p []byte) *cacheEntry {
	c.mu.RLock()
	e := c.entries[string(p)]
	c.mu.RUnlock()
	return e
}

// add enters e, evicting arbitrary entries to stay within the bounds.
func (c *fileCache) add(e *cacheEntry) {
	if e.cost > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.entries[e.key]; old != nil {
		c.bytes -= old.cost
		delete(c.entries, e.key)
	}
	for k, old := range c.entries { // map order: an arbitrary victim
		if len(c.entries) < c.maxEntries && c.bytes+e.cost <= c.maxBytes {
			break
		}
		c.bytes -= old.cost
		delete(c.entries, k)
	}
	c.entries[e.key] = e
	c.bytes += e.cost
}

// remove takes e out of the cache, unless it was replaced already.
func (c *fileCache) remove(e *cacheEntry) {
	c.mu.Lock()
	if c.entries[e.key] == e {
		c.bytes -= e.cost
		delete(c.entries, e.key)
	}
	c.mu.Unlock()
}

// cache returns s's cache, nil when it is off.
func (s *FileServer) cache() *fileCache {
	s.cacheOnce.Do(func() { s.files = newFileCache(s) })
	return s.files
}

// cached returns the entry for the request's path if it is still valid:
// checked within CacheCheck, or found unchanged by a new check. One
// request checks a stale entry while the others still answer from it.
func (s *FileServer) cached(c *Ctx) *cacheEntry {
	fc := s.cache()
	if fc == nil {
		return nil
	}
	e := fc.lookup(c.Request.Path())
	if e == nil {
		return nil
	}
	now := time.Now().UnixNano()
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
func (s *FileServer) unchanged(e *cacheEntry) bool {
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
		fi, err := s.stat(name)
		switch {
		case err != nil && !v.exists() && errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return false
		case !fi.Mode().IsRegular():
			if v.exists() || i == 0 {
				return false
			}
		case !v.exists(), fi.Size() != int64(len(v.data)), fi.Mode() != v.mode, !fi.ModTime().Equal(v.modtime):
			return false
		}
	}
	return true
}

// stat returns the FileInfo of name, without opening it on a StatFS.
func (s *FileServer) stat(name string) (fs.FileInfo, error) {
	if sfs, ok := s.FS.(fs.StatFS); ok {
		return sfs.Stat(name)
	}
	f, err := s.FS.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// fill reads the regular file name (open as f) and, with Precompressed,
// its siblings into a new entry for the request's path and enters it. It
// returns nil, leaving f at its start, when the cache is off or a file is
// too large, changes size while read, or fails: the uncached path then
// answers.
func (s *FileServer) fill(c *Ctx, name string, f fs.File, fi fs.FileInfo) *cacheEntry {
	fc := s.cache()
	if fc == nil || fi.Size() > MaxCachedFileSize {
		return nil
	}
	e := &cacheEntry{}
	now := time.Now().UnixNano()
	ok := readVariant(&e.variants[0], name, f, fi)
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

// fillSiblings reads the precompressed siblings of e's file; false when
// one is too large or fails.
func (s *FileServer) fillSiblings(e *cacheEntry) bool {
	base := &e.variants[0]
	for i, p := range precompressed {
		v := &e.variants[1+i]
		f, fi, err := s.open(base.name + p.ext)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return false
		}
		ok := true
		if fi.Mode().IsRegular() {
			ok = fi.Size() <= MaxCachedFileSize && readVariant(v, base.name+p.ext, f, fi)
			v.etag = encodedETag(v.etag, p.coding)
			v.coding = p.coding
			if v.ctype = TypeByExtension(base.name); v.ctype == "" {
				v.ctype = "application/octet-stream"
			}
		}
		f.Close()
		if !ok {
			return false
		}
	}
	return true
}

// readVariant reads the whole of the regular file f into v, with its
// validators and media type, and reports whether it read exactly the size
// fi gives.
func readVariant(v *cachedFile, name string, f fs.File, fi fs.FileInfo) bool {
	data := make([]byte, fi.Size()+1) // one more: a file that grew shows
	n, err := io.ReadFull(f, data)
	if int64(n) != fi.Size() || (err != io.ErrUnexpectedEOF && err != io.EOF) {
		return false
	}
	v.name, v.data, v.mode, v.modtime = name, data[:n:n], fi.Mode(), fi.ModTime()
	rep := representation{modtime: v.modtime}
	if rep.hasModTime() {
		v.etag = sizeModTimeETag(nil, fi.Size(), v.modtime)
		v.lastMod = rep.appendLastModified(nil)
	} else {
		tag, _ := hashETag(bytes.NewReader(v.data)) // reading memory cannot fail
		v.etag = []byte(tag)
	}
	if v.ctype = TypeByExtension(name); v.ctype == "" {
		v.ctype = http.DetectContentType(v.data[:min(n, sniffLen)])
	}
	return true
}

// serveCached answers the request from e: the variant the client accepts
// best, or 406 when the client rules out identity and e has no sibling it
// accepts.
func (s *FileServer) serveCached(c *Ctx, e *cacheEntry) {
	v := &e.variants[0]
	if s.Precompressed {
		var buf [len(precompressed)]int
		order, identityOK := codingOrder(c, &buf)
		found := false
		for _, i := range order {
			if e.variants[1+i].exists() {
				v, found = &e.variants[1+i], true
				break
			}
		}
		if !found && !identityOK {
			c.Response.setError(406)
			c.Response.Header.Set("Vary", "Accept-Encoding")
			return
		}
	}
	rep := representation{name: e.variants[0].name, data: v.data, size: int64(len(v.data)),
		modtime: v.modtime, lastMod: v.lastMod, etag: v.etag, coding: v.coding, ctype: v.ctype}
	serveRepresentation(c, &rep, s.MaxRanges)
}
