package compress

import (
	"bufio"
	"bytes"
	stdgzip "compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"math/rand"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/klauspost/compress/zstd"
)

// stallPayload is the start of a body in coding whose header declares a
// window of 1<<windowLog bytes, followed by 10 bytes of data. zstd: a
// frame header with that window and a raw block of 10 bytes, not the
// last. br: WBITS, then a metablock, not the last, of 16 MiB of
// uncompressed data, which makes the decoder size its ring buffer to the
// whole window at once, of which 10 bytes follow.
func stallPayload(coding string, windowLog int) []byte {
	data := []byte("0123456789")
	switch coding {
	case Zstd:
		b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, byte(windowLog-10) << 3}
		b = append(b, byte(len(data)<<3), 0, 0) // raw block, not last
		return append(b, data...)
	case Brotli:
		var w bitWriter
		brotliWBits(&w, windowLog)
		w.put(0, 1)        // ISLAST
		w.put(2, 2)        // MNIBBLES: 6
		w.put(1<<24-1, 24) // MLEN-1
		w.put(1, 1)        // ISUNCOMPRESSED
		return append(w.b, data...)
	}
	panic(coding)
}

// brotliWBits writes the stream header declaring a window of 1<<bits
// (RFC 7932 §9.1).
func brotliWBits(w *bitWriter, bits int) {
	switch {
	case bits == 16:
		w.put(0, 1)
	case bits > 17:
		w.put(1, 1)
		w.put(uint64(bits-17), 3)
	case bits == 17:
		w.put(1, 7)
	default: // 10 to 15
		w.put(1, 4)
		w.put(uint64(bits-8), 3)
	}
}

// bitWriter writes bits LSB first, as Brotli does; a new byte starts
// the next put after a byte is full, so a put ending on a byte boundary
// is followed by whole bytes.
type bitWriter struct {
	b []byte
	n uint // bits used in the last byte
}

func (w *bitWriter) put(v uint64, bits uint) {
	for i := range bits {
		if w.n == 0 {
			w.b = append(w.b, 0)
		}
		w.b[len(w.b)-1] |= byte(v>>i&1) << w.n
		w.n = (w.n + 1) % 8
	}
}

// align pads the last byte with zero bits.
func (w *bitWriter) align() { w.n = 0 }

// stalledHeap opens n connections to a server whose handler reads the
// body through open, each sending the head of a POST in coding that
// declares a longer body than payload, then payload, then nothing. Once
// every handler has read decoded bytes or failed, it returns the growth
// of HeapInuse per connection and the handlers' errors (nil for those
// still reading, which stay so until the subtest ends).
func stalledHeap(t *testing.T, n int, open func(*brisk.Ctx) (io.ReadCloser, error), coding string, payload []byte) (perConn int64, errs []error) {
	t.Helper()
	ready := make(chan error, n)
	srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Handler: func(c *brisk.Ctx) {
		r, err := open(c)
		if err == nil {
			defer r.Close()
			if _, err = r.Read(make([]byte, 64)); err == nil {
				ready <- nil
				io.Copy(io.Discard, r) // until the connection closes
				return
			}
		}
		ready <- err
		c.Response.SetStatusCode(Status(err))
	}}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	head := "POST / HTTP/1.1\r\nHost: x\r\nContent-Encoding: " + coding + "\r\nContent-Length: " +
		strconv.Itoa(len(payload)+1<<20) + "\r\n\r\n"
	runtime.GC()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	conns := make([]io.Closer, 0, n)
	t.Cleanup(func() {
		for _, nc := range conns {
			nc.Close()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	for range n {
		nc, err := ln.Dial()
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, nc)
		go func() {
			io.WriteString(nc, head+string(payload))
			http.ReadResponse(bufio.NewReader(nc), nil) // an error's response
		}()
	}
	timeout := time.After(10 * time.Second)
	for range n {
		select {
		case err := <-ready:
			errs = append(errs, err)
		case <-timeout:
			t.Fatalf("%d of %d handlers read the body", len(errs), n)
		}
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return (int64(after.HeapInuse) - int64(before.HeapInuse)) / int64(n), errs
}

// TestBodyDecoderStalledMemory: 50 connections each send the start of a
// zstd or Brotli body declaring a large window and stall. The heap grows
// by at most the window limit plus 512 KiB per connection (the
// decoder's block buffers, the connection's own memory), whatever window
// the body declares: one above the limit fails with ErrWindowTooLarge at
// once. It used to be the declared window: 8.7 MB per stalled zstd body
// declaring 8 MiB, 16.9 MB per Brotli body declaring 16 MiB.
func TestBodyDecoderStalledMemory(t *testing.T) {
	const n = 50
	small := &BodyDecoder{MaxWindow: 64 << 10}
	cases := []struct {
		name      string
		open      func(*brisk.Ctx) (io.ReadCloser, error)
		limit     int // the window limit
		coding    string
		windowLog int
		refused   bool
	}{
		{"zstd_default_largest", bodyReader, DefaultMaxWindow, Zstd, 22, false},
		{"zstd_8MiB", bodyReader, DefaultMaxWindow, Zstd, 23, true},
		{"br_default_largest", bodyReader, DefaultMaxWindow, Brotli, 22, false},
		{"br_8MiB", bodyReader, DefaultMaxWindow, Brotli, 23, true},
		{"br_16MiB", bodyReader, DefaultMaxWindow, Brotli, 24, true},
		{"zstd_64KiB_limit", small.Reader, 64 << 10, Zstd, 16, false},
		{"zstd_64KiB_limit_128KiB", small.Reader, 64 << 10, Zstd, 17, true},
		{"br_64KiB_limit", small.Reader, 64 << 10, Brotli, 16, false},
		{"br_64KiB_limit_1MiB", small.Reader, 64 << 10, Brotli, 20, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			perConn, errs := stalledHeap(t, n, tc.open, tc.coding, stallPayload(tc.coding, tc.windowLog))
			t.Logf("%d bytes per stalled connection", perConn)
			for _, err := range errs {
				if tc.refused && (!errors.Is(err, ErrWindowTooLarge) || Status(err) != 413) {
					t.Fatalf("error %v (status %d), want ErrWindowTooLarge (413)", err, Status(err))
				}
				if !tc.refused && err != nil {
					t.Fatalf("error %v, want the first bytes decoded", err)
				}
			}
			if bound := int64(tc.limit + 512<<10); perConn > bound {
				t.Errorf("%d bytes per stalled connection, want at most %d", perConn, bound)
			}
		})
	}
}

func bodyReader(c *brisk.Ctx) (io.ReadCloser, error) { return BodyReader(c, 0) }

// decodeWith sends body with Content-Encoding coding to a server whose
// handler reads it through open, in reads of at most chunk bytes, and
// returns the status, the decoded bytes (on 200) and the handler's error.
func decodeWith(t *testing.T, open func(*brisk.Ctx) (io.ReadCloser, error), chunk int, coding string, body []byte) (int, []byte, error) {
	t.Helper()
	var herr error
	send := serve(t, Config{}, func(c *brisk.Ctx) {
		r, err := open(c)
		var got []byte
		if err == nil {
			defer r.Close()
			buf := make([]byte, chunk)
			for err == nil {
				var n int
				n, err = r.Read(buf)
				got = append(got, buf[:n]...)
			}
			if err == io.EOF {
				err = nil
			}
		}
		if herr = err; err != nil {
			c.Response.SetStatusCode(Status(err))
			return
		}
		c.Response.Header.Set("Content-Type", "application/octet-stream")
		c.Response.SetBody(got)
	})
	resp, got := send("POST / HTTP/1.1\r\nHost: x\r\nContent-Encoding: " + coding +
		"\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + string(body))
	return resp.StatusCode, got, herr
}

// TestBodyDecoderWindow: a body whose zstd frame or Brotli stream
// declares a window above the limit is refused with ErrWindowTooLarge
// (413) on its first read; MaxWindow raises or lowers the limit, and
// negative accepts zstd's 8 MiB (RFC 9659) and Brotli's 16 MiB.
func TestBodyDecoderWindow(t *testing.T) {
	plain := make([]byte, 512<<10) // more than a zstd block: a streamed frame declares its window
	rand.New(rand.NewSource(1)).Read(plain[:len(plain)/2])
	zstdWindow := func(window int) []byte {
		var b bytes.Buffer
		w, _ := zstd.NewWriter(&b, zstd.WithWindowSize(window))
		w.Write(plain)
		w.Close()
		return b.Bytes()
	}
	brWindow := func(lgwin int) []byte {
		var b bytes.Buffer
		w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: 5, LGWin: lgwin})
		w.Write(plain)
		w.Close()
		return b.Bytes()
	}
	def, small, large, largest := &BodyDecoder{}, &BodyDecoder{MaxWindow: 1 << 20}, &BodyDecoder{MaxWindow: 8 << 20}, &BodyDecoder{MaxWindow: -1}
	for _, tc := range []struct {
		name   string
		dec    *BodyDecoder
		coding string
		body   []byte
		want   error // nil: decoded
	}{
		{"zstd_4MiB", def, Zstd, zstdWindow(4 << 20), nil},
		{"zstd_8MiB", def, Zstd, zstdWindow(8 << 20), ErrWindowTooLarge},
		{"zstd_8MiB_klauspost_default", def, Zstd, encodeZstdDefault(plain), ErrWindowTooLarge},
		{"zstd_8MiB_raised", large, Zstd, zstdWindow(8 << 20), nil},
		{"zstd_8MiB_negative", largest, Zstd, zstdWindow(8 << 20), nil},
		{"zstd_2MiB_lowered", small, Zstd, zstdWindow(2 << 20), ErrWindowTooLarge},
		{"zstd_1MiB_lowered", small, Zstd, zstdWindow(1 << 20), nil},
		{"br_22", def, Brotli, brWindow(22), nil},
		{"br_23", def, Brotli, brWindow(23), ErrWindowTooLarge},
		{"br_24_raised", large, Brotli, brWindow(24), ErrWindowTooLarge},
		{"br_24_negative", largest, Brotli, brWindow(24), nil},
		{"br_21_lowered", small, Brotli, brWindow(21), ErrWindowTooLarge},
		{"br_20_lowered", small, Brotli, brWindow(20), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, got, err := decodeWith(t, tc.dec.Reader, 32<<10, tc.coding, tc.body)
			switch {
			case tc.want == nil && (code != 200 || err != nil || !bytes.Equal(got, plain)):
				t.Fatalf("%d, %v, %d bytes; want 200 and the %d bytes", code, err, len(got), len(plain))
			case tc.want != nil && (code != 413 || !errors.Is(err, tc.want) || !errors.Is(err, ErrDecodedTooLarge)):
				t.Fatalf("%d, %v; want 413 and %v", code, err, tc.want)
			}
		})
	}
}

// encodeZstdDefault encodes b with klauspost/compress's zstd encoder as
// configured by default (an 8 MiB window for a body of several blocks).
func encodeZstdDefault(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestBodyDecoderEncodedAhead: encoded bytes that decode to nothing (zstd
// skippable frames, Brotli metadata, empty deflate blocks) fail with
// ErrEncodedAhead (400) once they run MaxEncodedLead ahead of the decoded
// bytes, so that MinRequestBodyRate bounds the decoded output too; below
// that the body decodes. Legitimate bodies, incompressible or not, read
// one byte at a time or 32 KiB at a time, never trip it.
func TestBodyDecoderEncodedAhead(t *testing.T) {
	plain := make([]byte, 1<<20)
	rand.New(rand.NewSource(2)).Read(plain[len(plain)/4:]) // mostly incompressible
	over, under := MaxEncodedLead+1024, MaxEncodedLead/2
	for _, tc := range []struct {
		name, coding string
		body         []byte
		want         error
	}{
		{"zstd_skippable_over", Zstd, append(zstdSkippable(over), encode(t, Zstd, plain)...), ErrEncodedAhead},
		{"zstd_skippable_under", Zstd, append(zstdSkippable(under), encode(t, Zstd, plain)...), nil},
		{"br_metadata_over", Brotli, brotliMetadata(over), ErrEncodedAhead},
		{"br_metadata_under", Brotli, brotliMetadata(under), nil},
		{"gzip_empty_blocks_over", Gzip, gzipEmptyBlocks(over / 5), ErrEncodedAhead},
		{"gzip_empty_blocks_under", Gzip, gzipEmptyBlocks(under / 5), nil},
		{"zstd", Zstd, encode(t, Zstd, plain), nil},
		{"br", Brotli, encode(t, Brotli, plain), nil},
		{"gzip", Gzip, encode(t, Gzip, plain), nil},
	} {
		for _, chunk := range []int{1, 32 << 10} {
			t.Run(tc.name+"/chunk="+strconv.Itoa(chunk), func(t *testing.T) {
				if chunk == 1 && tc.want != nil {
					t.Skip("same as 32 KiB")
				}
				code, got, err := decodeWith(t, bodyReader, chunk, tc.coding, tc.body)
				want := plain
				if strings.HasPrefix(tc.name, "br_metadata") || strings.HasPrefix(tc.name, "gzip_empty") {
					want = nil
				}
				switch {
				case tc.want == nil && (code != 200 || err != nil || !bytes.Equal(got, want)):
					t.Fatalf("%d, %v, %d bytes; want 200 and %d bytes", code, err, len(got), len(want))
				case tc.want != nil && (code != 400 || !errors.Is(err, tc.want)):
					t.Fatalf("%d, %v; want 400 and %v", code, err, tc.want)
				}
			})
		}
	}
}

// zstdSkippable is a zstd skippable frame (RFC 8878 §3.1.2) of n bytes.
func zstdSkippable(n int) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x184d2a50)
	b = binary.LittleEndian.AppendUint32(b, uint32(n-8))
	return append(b, make([]byte, n-8)...)
}

// brotliMetadata is a Brotli stream of about n bytes of metadata
// metablocks (RFC 7932 §9.2), which decodes to nothing.
func brotliMetadata(n int) []byte {
	var w bitWriter
	brotliWBits(&w, 16)
	for n > 0 {
		m := min(n, 1<<16)
		w.put(0, 1)            // ISLAST
		w.put(3, 2)            // MNIBBLES: 0, metadata
		w.put(0, 1)            // reserved
		w.put(2, 2)            // MSKIPBYTES
		w.put(uint64(m-1), 16) // MSKIPLEN-1
		w.align()
		w.b = append(w.b, make([]byte, m)...)
		n -= m
	}
	w.put(1, 1) // ISLAST
	w.put(1, 1) // ISLASTEMPTY
	return w.b
}

// gzipEmptyBlocks is a gzip member of n empty stored blocks (a flush
// each), 5 bytes each, which decodes to nothing.
func gzipEmptyBlocks(n int) []byte {
	var b bytes.Buffer
	w := stdgzip.NewWriter(&b)
	for range n {
		w.Flush()
	}
	w.Close()
	return b.Bytes()
}

// TestBodyDecoderStalledTooSlow: a body that stalls while its decoder
// holds a window fails with brisk.ErrBodyTooSlow (408) once
// MinRequestBodyRateGrace has passed, and the decoder goes back to its
// pool.
func TestBodyDecoderStalledTooSlow(t *testing.T) {
	for _, coding := range []string{Zstd, Brotli} {
		t.Run(coding, func(t *testing.T) {
			done := make(chan error, 1)
			srv := &brisk.Server{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
				MinRequestBodyRateGrace: 200 * time.Millisecond,
				Handler: func(c *brisk.Ctx) {
					r, err := BodyReader(c, 0)
					if err == nil {
						if _, err = r.Read(make([]byte, 64)); err == nil {
							_, err = io.ReadAll(r)
						}
						r.Close()
					}
					done <- err
					c.Response.SetStatusCode(Status(err))
				}}
			ln := brisktest.NewListener()
			go srv.Serve(ln)
			defer srv.Shutdown(context.Background())
			nc, err := ln.Dial()
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			payload := stallPayload(coding, 22)
			go io.WriteString(nc, "POST / HTTP/1.1\r\nHost: x\r\nContent-Encoding: "+coding+
				"\r\nContent-Length: 100000\r\n\r\n"+string(payload))
			resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := <-done; resp.StatusCode != 408 || !errors.Is(err, brisk.ErrBodyTooSlow) {
				t.Fatalf("%d, %v; want 408 and brisk.ErrBodyTooSlow", resp.StatusCode, err)
			}
		})
	}
}
