package advisories

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/brisk-http/brisk"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// repeatReader yields head, then body repeated n times, then tail,
// without holding it all in memory.
func repeatReader(head, body string, n int, tail string) io.Reader {
	parts := []io.Reader{strings.NewReader(head)}
	chunk := strings.Repeat(body, max(1, (64<<10)/max(1, len(body))))
	per := strings.Count(chunk, body)
	for n > 0 {
		k := min(n, per)
		parts = append(parts, strings.NewReader(chunk[:k*len(body)]))
		n -= k
	}
	return io.MultiReader(append(parts, strings.NewReader(tail))...)
}

// part is one multipart/form-data part named name, with a file name when
// file.
func part(name string, file bool, value string) string {
	disp := `form-data; name="` + name + `"`
	if file {
		disp += `; filename="` + name + `.bin"`
	}
	return "--B\r\nContent-Disposition: " + disp + "\r\n\r\n" + value + "\r\n"
}

// TestCVE_2023_24536_TooManyParts: mime/multipart spent CPU and memory
// on every part and header of a form, without a limit on their count.
// 100 000 empty parts are ErrMultipartParts once MaxParts (100 here)
// is passed, after reading a bounded prefix; no temporary file is left.
func TestCVE_2023_24536_TooManyParts(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	const n = 100000
	p := part("a", false, "")
	body := &countingReader{r: repeatReader("", p, n, "--B--\r\n")}
	_, err := brisk.ParseMultipart(body, "B", brisk.MultipartLimits{MaxParts: 100})
	if !errors.Is(err, brisk.ErrMultipartParts) {
		t.Fatalf("error %v, want ErrMultipartParts", err)
	}
	if total := int64(n * len(p)); body.n > total/10 {
		t.Errorf("read %d of %d bytes, want a bounded prefix", body.n, total)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("%d temporary files left", len(left))
	}
}

// TestCVE_2023_24536_ManyPartHeaders: 200 000 header lines in one part
// fail (mime/multipart's limit on a part's header lines, 10 000) having
// read less than the body.
func TestCVE_2023_24536_ManyPartHeaders(t *testing.T) {
	const n = 200000
	body := &countingReader{r: repeatReader("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n", "X: y\r\n", n, "\r\nv\r\n--B--\r\n")}
	_, err := brisk.ParseMultipart(body, "B", brisk.MultipartLimits{})
	if err == nil {
		t.Fatal("a part with 200 000 header lines parsed")
	}
	if total := int64(n * 6); body.n >= total {
		t.Errorf("read %d of %d bytes: want the error before the end", body.n, total)
	}
}

// TestCVE_2023_45290_LongLine: mime/multipart buffered a whole line of a
// non-file value however long. A 64 MiB value without a line break is
// ErrMultipartTooLarge once MaxMemoryBytes + MaxDiskBytes (2 MiB here)
// is passed, having read about that much.
func TestCVE_2023_45290_LongLine(t *testing.T) {
	const size = 64 << 20
	limits := brisk.MultipartLimits{MaxMemoryBytes: 1 << 20, MaxDiskBytes: 1 << 20}
	body := &countingReader{r: repeatReader("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n", "x", size, "\r\n--B--\r\n")}
	_, err := brisk.ParseMultipart(body, "B", limits)
	if !errors.Is(err, brisk.ErrMultipartTooLarge) {
		t.Fatalf("error %v, want ErrMultipartTooLarge", err)
	}
	if body.n > 3<<20 {
		t.Errorf("read %d bytes of a %d-byte value, want <= 3 MiB", body.n, size)
	}
}

// TestCVE_2022_41725_TempFiles: mime/multipart wrote file parts to
// temporary files without a bound on their number or size. 2000 file
// parts of 4 KiB, past MaxDiskBytes (1 MiB) with MaxMemoryBytes 64 KiB,
// are ErrMultipartTooLarge and leave no temporary file; through the
// server the handler's error maps to 413 and the connection is closed.
func TestCVE_2022_41725_TempFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	limits := brisk.MultipartLimits{MaxMemoryBytes: 64 << 10, MaxDiskBytes: 1 << 20, MaxParts: 5000}
	var b strings.Builder
	for i := range 2000 {
		b.WriteString(part(fmt.Sprint("f", i), true, strings.Repeat("z", 4<<10)))
	}
	b.WriteString("--B--\r\n")
	form := b.String()
	if _, err := brisk.ParseMultipart(strings.NewReader(form), "B", limits); !errors.Is(err, brisk.ErrMultipartTooLarge) {
		t.Fatalf("error %v, want ErrMultipartTooLarge", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("%d temporary files left", len(left))
	}

	addr, _ := serve(t, &brisk.Server{MaxBodyBytes: 64 << 20, Handler: func(c *brisk.Ctx) {
		if _, err := c.Request.MultipartForm(limits); err != nil {
			c.Response.SetStatusCode(brisk.ErrorStatus(err))
		}
	}})
	a := exchange(t, addr, fmt.Sprintf("POST / HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=B\r\n"+
		"Content-Length: %d\r\n\r\n%s", len(form), form))
	if a.status != 413 || !a.closed {
		t.Errorf("status %d closed=%v, want 413 and closed", a.status, a.closed)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("%d temporary files left after the request", len(left))
	}
}
