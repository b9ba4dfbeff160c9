package brisk

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func gzipped(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// codingServer answers /gz with gzipped "hello, gzip" repeated 100 times,
// /bad with a body claiming gzip that is not, /bomb with bomb, and every
// path with the request's Accept-Encoding in X-Asked.
func codingServer(t *testing.T, bomb []byte) string {
	plain := []byte(strings.Repeat("hello, gzip ", 100))
	gz := gzipped(t, plain)
	return startStreamServer(t, &Server{Handler: func(c *Ctx) {
		c.Response.Header.Set("X-Asked", string(c.Request.Header.Get("Accept-Encoding")))
		c.Response.Header.Set("Content-Encoding", "gzip")
		switch string(c.Request.Path()) {
		case "/gz":
			c.Response.SetBody(gz)
		case "/bad":
			c.Response.SetBodyString("not gzip at all")
		case "/bomb":
			c.Response.SetBody(bomb)
		case "/cut":
			c.Response.SetBody(gz[:len(gz)/2])
		}
	}})
}

// TestClientDecompress: the client asks for gzip and decodes it, removing
// Content-Encoding and Content-Length, only when it added Accept-Encoding
// itself; a body that does not decode is ErrContentEncoding.
func TestClientDecompress(t *testing.T) {
	url := codingServer(t, nil)
	plain := strings.Repeat("hello, gzip ", 100)
	cases := []struct {
		name    string
		keep    bool
		own     string // the request's Accept-Encoding
		method  string
		path    string
		asked   string
		decoded bool
		err     error
	}{
		{"added_and_decoded", false, "", "GET", "/gz", "gzip", true, nil},
		{"own_accept_encoding_kept", false, "gzip", "GET", "/gz", "gzip", false, nil},
		{"keep_content_encoding", true, "", "GET", "/gz", "", false, nil},
		{"head_not_asked", false, "", "HEAD", "/gz", "", false, nil},
		{"invalid_gzip", false, "", "GET", "/bad", "gzip", false, ErrContentEncoding},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Client{ClientConfig: ClientConfig{KeepContentEncoding: tc.keep}}
			var req Request
			var resp Response
			req.SetMethod(tc.method)
			req.SetURI(url + tc.path)
			if tc.own != "" {
				req.Header.Set("Accept-Encoding", tc.own)
			}
			err := c.Do(&req, &resp)
			if !errors.Is(err, tc.err) || (err != nil) != (tc.err != nil) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if got := string(resp.Header.Get("X-Asked")); got != tc.asked {
				t.Errorf("server got Accept-Encoding %q, want %q", got, tc.asked)
			}
			ce, cl := resp.Header.Has("Content-Encoding"), resp.Header.Has("Content-Length")
			switch {
			case tc.err != nil:
				if len(resp.Body()) != 0 {
					t.Errorf("body %q after a decode error", resp.Body())
				}
			case tc.decoded:
				if string(resp.Body()) != plain || ce || cl {
					t.Errorf("body %.20q (%d bytes), Content-Encoding %v, Content-Length %v; want decoded, neither field",
						resp.Body(), len(resp.Body()), ce, cl)
				}
			case tc.method != "HEAD":
				if !ce || string(resp.Body()) == plain {
					t.Errorf("body decoded or Content-Encoding dropped (%v)", ce)
				}
			}
		})
	}
}

// bomb returns gzip members that decode to n zero bytes: one member of
// 16 MiB, repeated.
func bomb(t testing.TB, n int64) []byte {
	member := gzipped(t, make([]byte, 16<<20))
	return bytes.Repeat(member, int(n/(16<<20)))
}

// TestClientDecompressBomb: a 10 GiB-decoded gzip body (10 MB on the
// wire, within MaxResponseBodyBytes) is stopped at the limit on its
// decoded size with ErrBodyTooLarge, having decoded no more than it.
func TestClientDecompressBomb(t *testing.T) {
	b := bomb(t, 10<<30)
	url := codingServer(t, b)
	c := Client{ClientConfig: ClientConfig{MaxResponseBodyBytes: 32 << 20}}
	var req Request
	var resp Response
	req.SetURI(url + "/bomb")
	start := time.Now()
	err := c.Do(&req, &resp)
	if !errors.Is(err, ErrBodyTooLarge) || !strings.Contains(err.Error(), "decoded") {
		t.Fatalf("err %v, want ErrBodyTooLarge for the decoded body", err)
	}
	if len(resp.Body()) != 0 {
		t.Errorf("body of %d bytes after the limit", len(resp.Body()))
	}
	t.Logf("%d MB bomb (10 GiB decoded) rejected in %v", len(b)>>20, time.Since(start))
}

// TestClientDecompressStream: DoStream asks for gzip too and decodes the
// body as it is read; the connection goes back to the pool after it; a
// body that does not decode, at its start or in its middle, is
// ErrContentEncoding.
func TestClientDecompressStream(t *testing.T) {
	url := codingServer(t, nil)
	var dials atomic.Int64
	var d net.Dialer
	c := Client{ClientConfig: ClientConfig{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return d.DialContext(ctx, network, addr)
	}}}
	stream := func(path string) (*Response, []byte, error) {
		var req Request
		resp := new(Response)
		req.SetURI(url + path)
		s, err := c.DoStream(context.Background(), &req, resp)
		if err != nil {
			return resp, nil, err
		}
		defer s.Close()
		b, err := io.ReadAll(s)
		return resp, b, err
	}
	plain := strings.Repeat("hello, gzip ", 100)
	for range 2 {
		resp, b, err := stream("/gz")
		if err != nil || string(b) != plain || resp.Header.Has("Content-Encoding") || resp.Header.Has("Content-Length") {
			t.Fatalf("err %v, %d bytes, Content-Encoding %q", err, len(b), resp.Header.Get("Content-Encoding"))
		}
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("%d dials for two streams, want 1 (connection reused)", n)
	}
	for _, path := range []string{"/bad", "/cut"} {
		if _, _, err := stream(path); !errors.Is(err, ErrContentEncoding) {
			t.Errorf("%s: err %v, want ErrContentEncoding", path, err)
		}
	}
}
