package h2

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/wire"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// hostileServer is an HTTP/2 server written with x/net's Framer that
// answers each request (HEADERS frame) with answer; it returns its
// address.
func hostileServer(t *testing.T, answer func(fr *http2.Framer, id uint32)) string {
	c, _ := testCert(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{c}, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func(nc net.Conn) {
				defer nc.Close()
				nc.SetDeadline(time.Now().Add(10 * time.Second))
				if _, err := io.ReadFull(nc, make([]byte, len(http2.ClientPreface))); err != nil {
					return
				}
				fr := http2.NewFramer(nc, nc)
				fr.WriteSettings()
				for {
					f, err := fr.ReadFrame()
					if err != nil {
						return
					}
					switch f := f.(type) {
					case *http2.SettingsFrame:
						if !f.IsAck() {
							fr.WriteSettingsAck()
						}
					case *http2.HeadersFrame:
						answer(fr, f.StreamID)
					}
				}
			}(nc)
		}
	}()
	return ln.Addr().String()
}

// block returns the HPACK encoding of fields, name value pairs.
func block(fields ...string) []byte {
	var b bytes.Buffer
	enc := hpack.NewEncoder(&b)
	for i := 0; i+1 < len(fields); i += 2 {
		enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
	}
	return b.Bytes()
}

func headers(fr *http2.Framer, id uint32, end bool, fields ...string) {
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block(fields...), EndHeaders: true, EndStream: end})
}

// noLeak fails t when goroutines started during f outlive it (after
// closing c's idle connections) for more than 5 s.
func noLeak(t *testing.T, c *brisk.Client, f func()) {
	t.Helper()
	base := runtime.NumGoroutine()
	f()
	c.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines, baseline %d:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}

func TestClientH2Hostile(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	for _, tc := range []struct {
		name   string
		answer func(fr *http2.Framer, id uint32)
		want   error
		body   string
	}{
		{"huge_header", func(fr *http2.Framer, id uint32) {
			b := block(":status", "200", "x-big", big)
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: b[:16384], EndStream: true})
			for b = b[16384:]; len(b) > 16384; b = b[16384:] {
				fr.WriteContinuation(id, false, b[:16384])
			}
			fr.WriteContinuation(id, true, b)
		}, brisk.ErrConnectionClosed, ""}, // one field over the limit: HPACK cannot skip it
		{"many_fields", func(fr *http2.Framer, id uint32) {
			f := []string{":status", "200"}
			for range 300 {
				f = append(f, "x-a", "0123456789")
			}
			headers(fr, id, true, f...)
		}, wire.ErrHeaderTooLarge, ""},
		{"continuation_flood", func(fr *http2.Framer, id uint32) {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block(":status", "200")})
			for range 100000 {
				if fr.WriteContinuation(id, false, block("x-a", "b")) != nil {
					return
				}
			}
		}, brisk.ErrConnectionClosed, ""},
		{"rst_stream", func(fr *http2.Framer, id uint32) { fr.WriteRSTStream(id, http2.ErrCodeInternal) }, brisk.ErrConnectionClosed, ""},
		// a GOAWAY naming the stream processed: it may still be answered
		{"goaway_processed", func(fr *http2.Framer, id uint32) { fr.WriteGoAway(id, http2.ErrCodeNo, nil) }, brisk.ErrTimeout, ""},
		{"goaway_huge_last", func(fr *http2.Framer, id uint32) { fr.WriteGoAway(1<<31-1, http2.ErrCodeProtocol, nil) }, brisk.ErrTimeout, ""},
		{"window_overflow", func(fr *http2.Framer, id uint32) {
			fr.WriteWindowUpdate(0, 1<<31-1)
			fr.WriteWindowUpdate(0, 1<<31-1)
		}, brisk.ErrConnectionClosed, ""},
		{"silent", func(fr *http2.Framer, id uint32) {}, brisk.ErrTimeout, ""},
		{"pseudo_in_response", func(fr *http2.Framer, id uint32) {
			headers(fr, id, true, ":status", "200", ":path", "/x")
		}, brisk.ErrConnectionClosed, ""},
		{"pseudo_in_trailer", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200")
			fr.WriteData(id, false, []byte("hi"))
			headers(fr, id, true, ":status", "500")
		}, brisk.ErrConnectionClosed, ""},
		{"cl_short", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200", "content-length", "10")
			fr.WriteData(id, true, []byte("hello"))
		}, brisk.ErrConnectionClosed, ""},
		{"cl_long", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200", "content-length", "2")
			fr.WriteData(id, true, []byte("hello"))
		}, brisk.ErrConnectionClosed, ""},
		{"cl_two", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200", "content-length", "5", "content-length", "6")
			fr.WriteData(id, true, []byte("hello"))
		}, nil, "hello"}, // as net/http: HTTP/2 framing is not in doubt
		{"connection_field", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200", "connection", "close", "transfer-encoding", "chunked")
			fr.WriteData(id, true, []byte("hello"))
		}, nil, "hello"},
		{"upper_case_name", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200", "X-Upper", "v")
			fr.WriteData(id, true, []byte("hello"))
		}, brisk.ErrConnectionClosed, ""},
		{"crlf_value", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200", "x-a", "a\r\nset-cookie: evil")
			fr.WriteData(id, true, []byte("hello"))
		}, brisk.ErrConnectionClosed, ""},
		{"status_bad", func(fr *http2.Framer, id uint32) { headers(fr, id, true, ":status", "20x") }, brisk.ErrConnectionClosed, ""},
		{"status_missing", func(fr *http2.Framer, id uint32) { headers(fr, id, true, "x-a", "b") }, brisk.ErrConnectionClosed, ""},
		{"body_too_large", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200")
			for range 100 {
				if fr.WriteData(id, false, make([]byte, 16384)) != nil {
					return
				}
			}
		}, brisk.ErrBodyTooLarge, ""},
		{"cl_too_large", func(fr *http2.Framer, id uint32) {
			headers(fr, id, false, ":status", "200", "content-length", "100000000")
		}, brisk.ErrBodyTooLarge, ""},
		{"interim_flood", func(fr *http2.Framer, id uint32) {
			for range 100000 {
				if fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block(":status", "103", "link", "</a>"), EndHeaders: true}) != nil {
					return
				}
			}
		}, brisk.ErrConnectionClosed, ""},
		{"data_after_end", func(fr *http2.Framer, id uint32) {
			headers(fr, id, true, ":status", "200")
			fr.WriteData(id, true, []byte("again"))
		}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := hostileServer(t, tc.answer)
			c, _ := h2BriskClient(t)
			c.Timeout = 2 * time.Second
			c.MaxResponseHeaderBytes = 8 << 10
			c.MaxResponseBodyBytes = 1 << 20
			noLeak(t, c, func() {
				var req brisk.Request
				var resp brisk.Response
				req.SetMethod("POST")
				req.SetURI("https://" + addr + "/")
				req.SetBodyString("x")
				start := time.Now()
				err := c.Do(&req, &resp)
				t.Logf("err %v after %v; status %d proto %s header %q body %q", err, time.Since(start), resp.StatusCode(), resp.Proto(), hdr(&resp.Header), resp.Body())
				if tc.want == nil && err != nil || !errors.Is(err, tc.want) {
					t.Errorf("err %v; want %v", err, tc.want)
				}
				if err == nil && string(resp.Body()) != tc.body {
					t.Errorf("body %q; want %q", resp.Body(), tc.body)
				}
			})
		})
	}
}

func hdr(h *brisk.Header) []string {
	var out []string
	for k, v := range h.All() {
		out = append(out, string(k)+": "+string(v))
	}
	return out
}

// TestClientH2HostileStream: DoStream against hostile HTTP/2 servers: a
// stream reset mid-body fails the read with ErrConnectionClosed, a body
// closed early or a context cancelled mid-body ends the stream, and no
// goroutine outlives either.
func TestClientH2HostileStream(t *testing.T) {
	endless := func(fr *http2.Framer, id uint32) {
		headers(fr, id, false, ":status", "200")
		fr.WriteData(id, false, []byte("part"))
	}
	for _, tc := range []struct {
		name   string
		answer func(fr *http2.Framer, id uint32)
		end    func(s *brisk.BodyStream, cancel func()) error
		want   error
	}{
		{"reset_mid_body", func(fr *http2.Framer, id uint32) {
			endless(fr, id)
			fr.WriteRSTStream(id, http2.ErrCodeInternal)
		}, func(s *brisk.BodyStream, _ func()) error { _, err := io.ReadAll(s); return err }, brisk.ErrConnectionClosed},
		{"close_early", endless, func(s *brisk.BodyStream, _ func()) error {
			s.Read(make([]byte, 4))
			s.Close()
			return nil
		}, nil},
		{"cancel_mid_body", endless, func(s *brisk.BodyStream, cancel func()) error {
			s.Read(make([]byte, 4))
			cancel()
			_, err := io.ReadAll(s)
			return err
		}, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := hostileServer(t, tc.answer)
			c, _ := h2BriskClient(t)
			noLeak(t, c, func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				var req brisk.Request
				var resp brisk.Response
				req.SetURI("https://" + addr + "/")
				s, err := c.DoStream(ctx, &req, &resp)
				if err != nil {
					t.Fatal(err)
				}
				if p := resp.Proto(); p != "HTTP/2.0" {
					t.Errorf("Proto %q; want HTTP/2.0", p)
				}
				err = tc.end(s, cancel)
				s.Close()
				if tc.want == nil && err != nil || !errors.Is(err, tc.want) {
					t.Errorf("err %v; want %v", err, tc.want)
				}
			})
		})
	}
}
