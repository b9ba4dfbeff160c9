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
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// tornVersion is version k of the file the torn-file test rewrites: its
// size says k, and every byte is k, so a body tells which version its
// bytes came from.
func tornVersion(base, k int) []byte {
	return bytes.Repeat([]byte{byte(k)}, base+k*1031)
}

// TestOverwrittenNeverTorn: files rewritten in place (truncated and
// written again, as os.WriteFile does) while clients download them are
// never served torn: every complete response's body is of one version
// (or an empty or part-written state between two), of the length its
// Content-Length says, and one ETag always names the same bytes. Responses cut short (the file changed while
// sent) are allowed: the client sees them incomplete. Small files
// (cached in memory) and large ones (streamed from a kept descriptor,
// by sendfile) alike, with the cache on and off.
func TestOverwrittenNeverTorn(t *testing.T) {
	for _, tc := range []struct {
		name  string
		base  int
		cache int64
	}{
		{"small_cached", 8 << 10, 0}, {"large_cached", 256 << 10, 0}, {"large_uncached", 256 << 10, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "f.bin")
			if err := os.WriteFile(file, tornVersion(tc.base, 0), 0o644); err != nil {
				t.Fatal(err)
			}
			fsrv := &Server{FS: os.DirFS(dir), CacheBytes: tc.cache}
			ts := startServer(t, "tcp", &brisk.Server{Handler: fsrv.Handle})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { // the writer
				defer wg.Done()
				for k := 1; ctx.Err() == nil; k++ {
					os.WriteFile(file, tornVersion(tc.base, k%200), 0o644)
					time.Sleep(5 * time.Millisecond) // past the clock tick of file times
				}
			}()
			var whole, cut atomic.Int64
			var mu sync.Mutex
			bodyOf := map[string]string{} // ETag -> version and length
			errs := make(chan error, 4)
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					hc := &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return ts.dial() }}}
					for ctx.Err() == nil {
						resp, err := hc.Get("http://x/f.bin")
						if err != nil {
							continue
						}
						body, err := io.ReadAll(resp.Body)
						resp.Body.Close()
						if err != nil || resp.StatusCode != 200 {
							cut.Add(1)
							continue
						}
						if err := checkVersion(body, resp.ContentLength); err != nil {
							errs <- err
							return
						}
						etag := resp.Header.Get("ETag")
						mu.Lock()
						got := fmt.Sprintf("%d bytes of %d", len(body), firstByte(body))
						had, seen := bodyOf[etag]
						if !seen {
							bodyOf[etag] = got
						}
						mu.Unlock()
						if seen && had != got {
							errs <- fmt.Errorf("ETag %s named %s, then %s", etag, had, got)
							return
						}
						whole.Add(1)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			t.Logf("%d whole responses, %d cut short, %d ETags", whole.Load(), cut.Load(), len(bodyOf))
			if whole.Load() < 20 {
				t.Fatalf("only %d whole responses", whole.Load())
			}
		})
	}
}

// checkVersion checks that body, of the length Content-Length gave, is
// of one version: every byte the same. The file is seen in states
// between versions too (empty after the truncation, part written), each
// with validators of its own.
func checkVersion(body []byte, length int64) error {
	if int64(len(body)) != length {
		return fmt.Errorf("torn body: %d bytes, Content-Length %d", len(body), length)
	}
	if len(body) > 0 && bytes.Count(body, body[:1]) != len(body) {
		return fmt.Errorf("torn body: %d bytes mixing versions (first byte %d, last %d)", len(body), body[0], body[len(body)-1])
	}
	return nil
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}
