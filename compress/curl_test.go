package compress

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/files"
)

// curl runs curl with a time limit and returns its stdout, skipping the
// test when curl is not installed.
func curl(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl not installed (Debian package curl)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, append([]string{"-sS", "--max-time", "15"}, args...)...).Output()
	if err != nil {
		t.Fatalf("curl %v: %v", args, err)
	}
	return string(out)
}

// TestCurl serves a directory through files.Server (precompressed siblings)
// behind the middleware, and checks what curl saves against the files on
// disk: --compressed with each coding, -r, -z and --etag-compare.
func TestCurl(t *testing.T) {
	dir := t.TempDir()
	js := jsonBody(200 << 10)
	css := bytes.Repeat([]byte("body { margin: 0; padding: 0 }\n"), 500)
	bin := randomBytes(1 << 20)
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, 9)
	bw.Write(css)
	bw.Close()
	write("app.json", js)
	write("style.css", css)
	write("style.css.br", br.Bytes())
	write("blob.bin", bin)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	fsrv := &files.Server{FS: root.FS(), Precompressed: true}
	srv := &brisk.Server{Handler: New(Config{})(fsrv.Handle), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	base := "http://" + ln.Addr().String()
	out := filepath.Join(t.TempDir(), "out")
	saved := func() []byte {
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, coding := range []string{Gzip, Zstd, Brotli} {
		t.Run("compressed_"+coding, func(t *testing.T) {
			got := curl(t, "--compressed", "-H", "Accept-Encoding: "+coding, "-o", out,
				"-w", "%{http_code} %header{content-encoding}", base+"/app.json")
			if got != "200 "+coding || !bytes.Equal(saved(), js) {
				t.Fatalf("%q, %d bytes saved, want 200 %s and the file", got, len(saved()), coding)
			}
		})
	}
	t.Run("head_compressed", func(t *testing.T) { // curl offers deflate, gzip, br, zstd
		head := parseHead(t, curl(t, "-I", "--compressed", base+"/app.json"))
		get := parseHead(t, curl(t, "--compressed", "-D", "-", "-o", out, base+"/app.json"))
		if head.status != get.status || !slices.Equal(head.fields, get.fields) || head.field("Content-Encoding") != Zstd ||
			head.length != "" || !strings.HasPrefix(head.field("ETag"), "W/") || head.field("Vary") != "Accept-Encoding" {
			t.Fatalf("HEAD %s\n%s\nContent-Length %q\nGET %s\n%s", head.status, strings.Join(head.fields, "\n"), head.length,
				get.status, strings.Join(get.fields, "\n"))
		}
	})
	t.Run("precompressed_br", func(t *testing.T) {
		got := curl(t, "--compressed", "-o", out, "-w", "%{http_code} %header{content-encoding} %{size_download}",
			base+"/style.css")
		if want := fmt.Sprintf("200 br %d", br.Len()); got != want || !bytes.Equal(saved(), css) {
			t.Fatalf("%q, want %q and the file", got, want)
		}
	})
	t.Run("range", func(t *testing.T) {
		got := curl(t, "-r", "1000-200999", "-o", out, "-w", "%{http_code}", base+"/blob.bin")
		if got != "206" || !bytes.Equal(saved(), bin[1000:201000]) {
			t.Fatalf("%q, %d bytes", got, len(saved()))
		}
	})
	t.Run("whole", func(t *testing.T) {
		got := curl(t, "-o", out, "-w", "%{http_code}", base+"/blob.bin")
		if got != "200" || !bytes.Equal(saved(), bin) {
			t.Fatalf("%q, %d bytes", got, len(saved()))
		}
	})
	t.Run("if_modified_since", func(t *testing.T) {
		later := filepath.Join(t.TempDir(), "later")
		os.WriteFile(later, nil, 0o644)
		future := time.Now().Add(time.Hour)
		os.Chtimes(later, future, future)
		if got := curl(t, "-z", later, "-o", out, "-w", "%{http_code}", base+"/blob.bin"); got != "304" {
			t.Fatalf("-z a later file: %q, want 304", got)
		}
		earlier := filepath.Join(t.TempDir(), "earlier")
		os.WriteFile(earlier, nil, 0o644)
		past := time.Now().Add(-time.Hour)
		os.Chtimes(earlier, past, past)
		if got := curl(t, "-z", earlier, "-o", out, "-w", "%{http_code}", base+"/blob.bin"); got != "200" {
			t.Fatalf("-z an earlier file: %q, want 200", got)
		}
		// curl reports an unmet time condition as 304: read the status line.
		if got := curl(t, "-z", "-"+earlier, "-o", out, "-D", "-", base+"/blob.bin"); !strings.HasPrefix(got, "HTTP/1.1 412 ") {
			t.Fatalf("-z -earlier (If-Unmodified-Since): %q, want 412", got)
		}
	})
	t.Run("etag_compare", func(t *testing.T) {
		etag := filepath.Join(t.TempDir(), "etag")
		curl(t, "--etag-save", etag, "-o", out, base+"/blob.bin")
		if got := curl(t, "--etag-compare", etag, "-o", out, "-w", "%{http_code}", base+"/blob.bin"); got != "304" {
			t.Fatalf("--etag-compare: %q, want 304", got)
		}
	})
}
