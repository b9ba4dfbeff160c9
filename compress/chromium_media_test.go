package compress

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
)

// wav returns a mono 16-bit PCM WAV file of the given length in seconds.
func wav(seconds, rate int) []byte {
	n := seconds * rate * 2
	b := make([]byte, 44, 44+n)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+n))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1) // PCM
	binary.LittleEndian.PutUint16(b[22:], 1) // mono
	binary.LittleEndian.PutUint32(b[24:], uint32(rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(rate*2))
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(n))
	for i := 0; i < n/2; i++ {
		b = binary.LittleEndian.AppendUint16(b, uint16(i*440*65536/rate))
	}
	return b
}

// TestChromiumMediaSeek: a media element seeking into a file served by
// files.Server reads it with Range requests, and the seek completes.
func TestChromiumMediaSeek(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (Debian package chromium)")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tone.wav"), wav(60, 44100), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<!doctype html><p id="out">no seek</p>
<script>
const a = new Audio("tone.wav");
a.preload = "auto";
a.addEventListener("loadedmetadata", () => { a.currentTime = 50; });
a.addEventListener("seeked", () => { document.getElementById("out").textContent = "seeked " + Math.round(a.currentTime); });
a.addEventListener("error", () => { document.getElementById("out").textContent = "error " + a.error.code; });
</script>`), 0o644)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var mu sync.Mutex
	var ranges []string
	fsrv := &files.Server{FS: root.FS()}
	srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: func(c *brisk.Ctx) {
		if r := c.Request.Header.Get("Range"); r != nil {
			mu.Lock()
			ranges = append(ranges, string(r))
			mu.Unlock()
		}
		fsrv.Handle(c)
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--autoplay-policy=no-user-gesture-required", "--virtual-time-budget=10000",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "http://"+ln.Addr().String()+"/index.html").Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if !strings.Contains(string(out), `<p id="out">seeked 50</p>`) {
		t.Errorf("no seek to 50 s; DOM:\n%s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	seekedByRange := false
	for _, r := range ranges {
		seekedByRange = seekedByRange || (strings.HasPrefix(r, "bytes=") && !strings.HasPrefix(r, "bytes=0-"))
	}
	t.Logf("Range fields: %q", ranges)
	if !seekedByRange {
		t.Errorf("Range fields received %q, want one starting past 0", ranges)
	}
}
