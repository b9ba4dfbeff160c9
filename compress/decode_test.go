package compress

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/brisk-http/brisk"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

func encode(t testing.TB, coding string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case Gzip:
		w = gzip.NewWriter(&b)
	case Zstd: // a window BodyReader accepts: the encoder's default is 8 MiB
		w, _ = zstd.NewWriter(&b, zstd.WithWindowSize(1<<20))
	case Brotli:
		w = brotli.NewWriter(&b)
	}
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// truncated returns b without its last byte.
func truncated(b []byte) []byte { return b[:len(b)-1] }

// TestBodyReader decodes request bodies and refuses bombs (413) and
// unknown codings (415).
func TestBodyReader(t *testing.T) {
	plain := jsonBody(10 << 10)
	bomb := make([]byte, 50<<20) // 50 MiB of zeros: a few KB encoded
	cases := []struct {
		name, coding string
		body         []byte
		status       int
		want         []byte
	}{
		{"identity", "", plain, 200, plain},
		{"identity_named", "identity", plain, 200, plain},
		{"gzip", Gzip, encode(t, Gzip, plain), 200, plain},
		{"x_gzip", "x-gzip", encode(t, Gzip, plain), 200, plain},
		{"zstd", Zstd, encode(t, Zstd, plain), 200, plain},
		{"br", Brotli, encode(t, Brotli, plain), 200, plain},
		{"gzip_bomb", Gzip, encode(t, Gzip, bomb), 413, nil},
		{"zstd_bomb", Zstd, encode(t, Zstd, bomb), 413, nil},
		{"br_bomb", Brotli, encode(t, Brotli, bomb), 413, nil},
		{"unsupported", "deflate", plain, 415, nil},
		{"two_codings", "gzip, gzip", encode(t, Gzip, encode(t, Gzip, plain)), 415, nil},
		{"malformed", Gzip, []byte("not gzip at all"), 400, nil},
		{"br_malformed", Brotli, []byte("not brotli at all"), 400, nil},
		{"br_truncated", Brotli, truncated(encode(t, Brotli, plain)), 400, nil},
		{"br_trailing", Brotli, append(encode(t, Brotli, plain), "junk"...), 400, nil},
		{"gzip_truncated", Gzip, truncated(encode(t, Gzip, plain)), 400, nil},
		{"gzip_trailing", Gzip, append(encode(t, Gzip, plain), "junk"...), 400, nil},
		{"zstd_truncated", Zstd, truncated(encode(t, Zstd, plain)), 400, nil},
		{"zstd_trailing", Zstd, append(encode(t, Zstd, plain), "junk"...), 400, nil},
		{"br_empty", Brotli, nil, 400, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			send := serve(t, Config{}, func(c *brisk.Ctx) {
				r, err := BodyReader(c, 1<<20)
				var got []byte
				if err == nil {
					defer r.Close()
					got, err = io.ReadAll(r)
				}
				if err != nil {
					c.Response.SetStatusCode(Status(err))
					return
				}
				c.Response.Header.Set("Content-Type", "application/octet-stream")
				c.Response.SetBody(got)
			})
			raw := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(len(tc.body)) + "\r\n"
			if tc.coding != "" {
				raw += "Content-Encoding: " + tc.coding + "\r\n"
			}
			resp, got := send(raw + "\r\n" + string(tc.body))
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.want != nil && !bytes.Equal(got, tc.want) {
				t.Errorf("decoded %d bytes, want %d", len(got), len(tc.want))
			}
		})
	}
}

// TestStatusOfBodyErrors: a body that fails for a reason of brisk's own
// (too slow, timed out, too large) gets brisk's status code, not the 400 of
// a malformed encoding.
func TestStatusOfBodyErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{ErrDecodedTooLarge, 413},
		{ErrUnsupportedEncoding, 415},
		{brisk.ErrBodyTooLarge, 413},
		{fmt.Errorf("read: %w", brisk.ErrBodyTooSlow), 408},
		{os.ErrDeadlineExceeded, 408},
		{gzip.ErrHeader, 400},
		{io.ErrUnexpectedEOF, 400},
	} {
		if got := Status(tc.err); got != tc.want {
			t.Errorf("Status(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestBodyReaderPooled: decoders come back from a failed body (malformed,
// truncated, a bomb) fit for the next one, and a closed reader fails
// with fs.ErrClosed.
func TestBodyReaderPooled(t *testing.T) {
	plain := jsonBody(10 << 10)
	bomb := make([]byte, 8<<20)
	var afterClose error
	send := serve(t, Config{}, func(c *brisk.Ctx) {
		r, err := BodyReader(c, 1<<20)
		var got []byte
		if err == nil {
			got, err = io.ReadAll(r)
			r.Close()
			_, afterClose = r.Read(make([]byte, 1))
			r.Close()
		}
		if err != nil {
			c.Response.SetStatusCode(Status(err))
			return
		}
		c.Response.Header.Set("Content-Type", "application/octet-stream")
		c.Response.SetBody(got)
	})
	for round := range 3 {
		for _, coding := range []string{Gzip, Zstd, Brotli} {
			for _, tc := range []struct {
				name   string
				body   []byte
				status int
			}{
				{"truncated", truncated(encode(t, coding, plain)), 400},
				{"ok", encode(t, coding, plain), 200},
				{"bomb", encode(t, coding, bomb), 413},
				{"trailing", append(encode(t, coding, plain), "junk"...), 400},
				{"ok_again", encode(t, coding, plain), 200},
			} {
				afterClose = nil
				resp, got := send("POST / HTTP/1.1\r\nHost: x\r\nContent-Encoding: " + coding +
					"\r\nContent-Length: " + strconv.Itoa(len(tc.body)) + "\r\n\r\n" + string(tc.body))
				if resp.StatusCode != tc.status || tc.status == 200 && !bytes.Equal(got, plain) {
					t.Fatalf("round %d, %s %s: %d, %d bytes; want %d", round, coding, tc.name, resp.StatusCode, len(got), tc.status)
				}
				if tc.status == 200 && !errors.Is(afterClose, fs.ErrClosed) {
					t.Fatalf("%s: read after Close: %v, want fs.ErrClosed", coding, afterClose)
				}
			}
		}
	}
}
