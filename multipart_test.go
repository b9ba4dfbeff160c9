package brisk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// multipartBody builds a multipart/form-data body with the given fields and
// one file of fileSize bytes named "upload" (none when fileSize < 0).
func multipartBody(t *testing.T, fields int, fileSize int) (body []byte, boundary string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i := range fields {
		if err := w.WriteField(fmt.Sprintf("f%d", i), fmt.Sprintf("value %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if fileSize >= 0 {
		fw, err := w.CreateFormFile("upload", "data.bin")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(bytes.Repeat([]byte("x"), fileSize))
	}
	w.Close()
	return b.Bytes(), w.Boundary()
}

func TestParseMultipart(t *testing.T) {
	body, boundary := multipartBody(t, 3, 100)
	// One byte per Read exercises delimiter matches split across reads.
	form, err := ParseMultipart(iotest.OneByteReader(bytes.NewReader(body)), boundary, MultipartLimits{MaxParts: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer form.RemoveAll()
	if got := form.Value["f2"]; len(got) != 1 || got[0] != "value 2" {
		t.Fatalf("f2 = %q", got)
	}
	fh := form.File["upload"]
	if len(fh) != 1 || fh[0].Filename != "data.bin" || fh[0].Size != 100 {
		t.Fatalf("upload = %+v", fh)
	}
}

func TestParseMultipartLimits(t *testing.T) {
	tests := []struct {
		name     string
		fields   int
		fileSize int
		limits   MultipartLimits
		err      error
	}{
		{"too_many_parts", 5, -1, MultipartLimits{MaxParts: 4}, ErrMultipartParts},
		{"parts_at_limit", 4, -1, MultipartLimits{MaxParts: 4}, nil},
		{"too_large", 0, 5000, MultipartLimits{MaxMemoryBytes: 1000, MaxDiskBytes: 1000}, ErrMultipartTooLarge},
		{"fits_on_disk", 0, 5000, MultipartLimits{MaxMemoryBytes: 1000, MaxDiskBytes: 8000}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, boundary := multipartBody(t, tt.fields, tt.fileSize)
			form, err := ParseMultipart(bytes.NewReader(body), boundary, tt.limits)
			if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Fatalf("ParseMultipart error = %v, want %v", err, tt.err)
			}
			if form != nil {
				form.RemoveAll()
			}
		})
	}
}

// TestParseMultipartTempFilesRemoved checks that a file spilled to disk
// exists until RemoveAll and not after.
func TestParseMultipartTempFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	body, boundary := multipartBody(t, 0, 4000)
	form, err := ParseMultipart(bytes.NewReader(body), boundary, MultipartLimits{MaxMemoryBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	f, err := form.File["upload"][0].Open()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if len(data) != 4000 {
		t.Fatalf("read %d bytes", len(data))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d temporary files before RemoveAll, want 1", len(entries))
	}
	if err := form.RemoveAll(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("%d temporary files left after RemoveAll", len(entries))
	}
}

// TestParseMultipartErrorLeavesNoFiles checks the error path cleans up.
func TestParseMultipartErrorLeavesNoFiles(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	body, boundary := multipartBody(t, 0, 4000)
	body = append(body[:len(body)-10:len(body)-10], strings.Repeat("y", 3000)...) // truncated, no close-delimiter
	if _, err := ParseMultipart(bytes.NewReader(body), boundary, MultipartLimits{MaxMemoryBytes: 100}); err == nil {
		t.Fatal("truncated body accepted")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("%d temporary files left after an error", len(entries))
	}
}

func TestMultipartBoundary(t *testing.T) {
	tests := []struct {
		ct, want string
		err      error
	}{
		{"multipart/form-data; boundary=abc", "abc", nil},
		{`Multipart/Form-Data; boundary="a b:c"`, "a b:c", nil},
		{"multipart/form-data", "", ErrNotMultipart},
		{"multipart/form-data; boundary=" + strings.Repeat("a", 71), "", ErrNotMultipart},
		{"multipart/mixed; boundary=abc", "", ErrNotMultipart},
		{"application/x-www-form-urlencoded", "", ErrNotMultipart},
		{"multipart/form-data; boundary=", "", ErrNotMultipart},
	}
	for _, tt := range tests {
		got, err := MultipartBoundary([]byte(tt.ct))
		if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("MultipartBoundary(%q) = %q, %v; want %q, %v", tt.ct, got, err, tt.want, tt.err)
		}
	}
}

func TestIsFormURLEncoded(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/x-www-form-urlencoded":                 true,
		"Application/X-WWW-Form-URLEncoded ; charset=utf-8": true,
		"application/x-www-form-urlencodedx":                false,
		"text/plain":                                        false,
		"":                                                  false,
	} {
		if got := IsFormURLEncoded([]byte(ct)); got != want {
			t.Errorf("IsFormURLEncoded(%q) = %v", ct, got)
		}
	}
}
