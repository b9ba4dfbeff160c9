package advisories

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/brisk-http/brisk/internal/testsupport/testserver"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// maxStreams is the SETTINGS_MAX_CONCURRENT_STREAMS of the h2 tests.
const maxStreams = 8

// h2Server serves handler over h2c with prior knowledge (brisk.Server
// H2C and h2.Configure with the brisk handler, through the net/http
// adaptor) until the test ends.
func h2Server(t *testing.T, handler brisk.Handler) (string, *counted) {
	t.Helper()
	s := testserver.Quiet(&brisk.Server{H2C: true, Handler: handler}) // before Configure reads it
	if err := h2.Configure(s, h2.Config{MaxConcurrentStreams: maxStreams}); err != nil {
		t.Fatal(err)
	}
	return serve(t, s)
}

// h2Conn is a hostile HTTP/2 client: x/net's Framer over a connection
// that has sent the preface and exchanged SETTINGS.
type h2Conn struct {
	nc  net.Conn
	fr  *http2.Framer
	enc *hpack.Encoder
	buf bytes.Buffer
}

func dialH2(t *testing.T, addr string) *h2Conn {
	t.Helper()
	nc := dial(t, addr)
	c := &h2Conn{nc: nc, fr: http2.NewFramer(nc, nc)}
	c.enc = hpack.NewEncoder(&c.buf)
	c.fr.MaxHeaderListSize = 1 << 20
	if _, err := io.WriteString(nc, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	c.fr.WriteSettings()
	for {
		f, err := c.fr.ReadFrame()
		if err != nil {
			t.Fatalf("reading the server's SETTINGS: %v", err)
		}
		if sf, ok := f.(*http2.SettingsFrame); ok && !sf.IsAck() {
			break
		}
	}
	c.fr.WriteSettingsAck()
	return c
}

// headerBlock returns the HPACK encoding of a GET of path, plus extra
// raw HPACK bytes.
func (c *h2Conn) headerBlock(path string, extra []byte) []byte {
	c.buf.Reset()
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "a"}, {":path", path}} {
		c.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	c.buf.Write(extra)
	return bytes.Clone(c.buf.Bytes())
}

// get opens stream id with a GET of path, ending the stream.
func (c *h2Conn) get(id uint32, path string) error {
	return c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: c.headerBlock(path, nil),
		EndHeaders: true, EndStream: true})
}

// h2Outcome is what a hostile client saw on its connection.
type h2Outcome struct {
	status  string // :status of the stream watched ("" without one)
	goAway  bool   // a GOAWAY arrived, with code
	code    http2.ErrCode
	closed  bool // the connection ended (EOF or reset, not the deadline)
	resets  int  // RST_STREAM frames seen
	pingAck bool
}

// readUntil reads frames until stop reports true or the connection ends
// (the deadline included), recording GOAWAY, RST_STREAM, PING
// acknowledgements and the :status of stream id.
func (c *h2Conn) readUntil(id uint32, stop func(o *h2Outcome) bool) h2Outcome {
	var o h2Outcome
	dec := hpack.NewDecoder(4096, nil)
	for !stop(&o) {
		f, err := c.fr.ReadFrame()
		if err != nil {
			var ne net.Error
			o.closed = !(errors.As(err, &ne) && ne.Timeout())
			return o
		}
		switch f := f.(type) {
		case *http2.GoAwayFrame:
			o.goAway, o.code = true, f.ErrCode
		case *http2.RSTStreamFrame:
			o.resets++
		case *http2.PingFrame:
			o.pingAck = o.pingAck || f.IsAck()
		case *http2.HeadersFrame:
			fields, _ := dec.DecodeFull(f.HeaderBlockFragment())
			if f.StreamID == id {
				for _, hf := range fields {
					if hf.Name == ":status" {
						o.status = hf.Value
					}
				}
			}
		}
	}
	return o
}

// blockingHandler counts the handlers running at once (peak) and holds
// each until release is closed.
type blockingHandler struct {
	running, peak, started atomic.Int64
	release                chan struct{}
}

func (h *blockingHandler) serve(c *brisk.Ctx) {
	h.started.Add(1)
	n := h.running.Add(1)
	for {
		p := h.peak.Load()
		if n <= p || h.peak.CompareAndSwap(p, n) {
			break
		}
	}
	<-h.release
	h.running.Add(-1)
	c.Response.SetBodyString("ok")
}

// streamFlood opens n streams on one connection, each followed by
// provoke (which makes the stream end: a client reset, or a frame the
// server answers with a reset), while handlers block. It returns the
// peak count of handlers running at once and of goroutines above the
// baseline, and what the connection saw.
func streamFlood(t *testing.T, n int, provoke func(c *h2Conn, id uint32)) (peakHandlers, peakGoroutines int64, o h2Outcome) {
	t.Helper()
	h := &blockingHandler{release: make(chan struct{})}
	addr, _ := h2Server(t, h.serve)
	defer close(h.release)
	runtime.GC()
	base := runtime.NumGoroutine()
	stop := make(chan struct{})
	peak := goroutinePeak(stop)
	c := dialH2(t, addr)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for i := range n {
			id := uint32(2*i + 1)
			if err := c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: c.headerBlock("/", nil), EndHeaders: true}); err != nil {
				return
			}
			provoke(c, id)
		}
		c.fr.WritePing(false, [8]byte{9}) // answered once the server has read the flood
	}()
	o = c.readUntil(0, func(o *h2Outcome) bool { return o.closed || o.pingAck })
	<-wrote
	close(stop)
	return h.peak.Load(), int64(<-peak - base), o
}

// TestCVE_2023_44487_RapidReset: HEADERS then RST_STREAM, 5000 times on
// one connection (CVE-2023-44487; CVE-2023-39325 in Go), while every
// handler blocks: no more than MaxConcurrentStreams handlers run at
// once, the goroutines stay bounded, and the server ends the connection.
func TestCVE_2023_44487_RapidReset(t *testing.T) {
	handlers, goroutines, o := streamFlood(t, 5000, func(c *h2Conn, id uint32) {
		c.fr.WriteRSTStream(id, http2.ErrCodeCancel)
	})
	t.Logf("peak %d handlers, %d goroutines over the baseline; GOAWAY=%v (%v) closed=%v", handlers, goroutines, o.goAway, o.code, o.closed)
	if handlers > maxStreams {
		t.Errorf("%d handlers ran at once, want <= MaxConcurrentStreams (%d)", handlers, maxStreams)
	}
	if goroutines > 20*maxStreams {
		t.Errorf("%d goroutines over the baseline, want <= %d", goroutines, 20*maxStreams)
	}
	if !o.closed {
		t.Errorf("the connection survived 5000 rapid resets")
	}
}

// TestCVE_2025_8671_MadeYouReset: HEADERS then a frame the server must
// answer with RST_STREAM (a WINDOW_UPDATE of 0 on the stream, RFC 9113
// §6.9), 5000 times: the work stays bounded as for client resets, no
// more than MaxConcurrentStreams handlers at once and a bounded number
// of goroutines. (The connection may stay open: the handlers still
// running hold their streams' places, so no new handler starts.)
func TestCVE_2025_8671_MadeYouReset(t *testing.T) {
	handlers, goroutines, o := streamFlood(t, 5000, func(c *h2Conn, id uint32) {
		c.fr.WriteWindowUpdate(id, 0)
	})
	t.Logf("peak %d handlers, %d goroutines over the baseline; %d resets; GOAWAY=%v (%v) closed=%v", handlers, goroutines, o.resets, o.goAway, o.code, o.closed)
	if handlers > maxStreams {
		t.Errorf("%d handlers ran at once, want <= MaxConcurrentStreams (%d)", handlers, maxStreams)
	}
	if goroutines > 20*maxStreams {
		t.Errorf("%d goroutines over the baseline, want <= %d", goroutines, 20*maxStreams)
	}
}

// literalField is the HPACK encoding of a literal field without
// indexing, new name (RFC 7541 §6.2.2), for names and values under 127
// bytes.
func literalField(name, value string) []byte {
	return append(append(append([]byte{0, byte(len(name))}, name...), byte(len(value))), value...)
}

// TestCVE_2023_45288_ContinuationFlood: HEADERS without END_HEADERS
// followed by 64 MiB of CONTINUATION frames: the server must stop
// reading and close the connection after about MaxHeaderBytes, not
// decode or buffer the rest.
func TestCVE_2023_45288_ContinuationFlood(t *testing.T) {
	addr, ln := h2Server(t, func(c *brisk.Ctx) {})
	c := dialH2(t, addr)
	frag := bytes.Repeat(literalField("x", strings.Repeat("a", 100)), (16<<10)/104)
	const total = 64 << 20
	go func() {
		if c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: c.headerBlock("/", nil)}) != nil {
			return
		}
		for sent := 0; sent < total; sent += len(frag) {
			if c.fr.WriteContinuation(1, false, frag) != nil {
				return
			}
		}
	}()
	o := c.readUntil(1, func(o *h2Outcome) bool { return o.closed || o.status != "" })
	if !o.closed && o.status != "431" {
		t.Errorf("status %q, want 431 or the connection closed", o.status)
	}
	o = c.readUntil(1, func(o *h2Outcome) bool { return o.closed })
	if n := ln.read.Load(); n > 8<<20 {
		t.Errorf("server read %d bytes of %d, want < 8 MiB", n, total)
	}
}

// TestCVE_2022_41723_HPACKAmplification: one header block of 256 KiB of
// one-byte indexed fields, each decoding to a 42-byte field (and, in
// CVE-2026-49975's "HPACK bomb", to a 4000-byte entry of the dynamic
// table): decoding must stop at the header list limit and the stream be
// refused with 431 (or the connection closed), and the connection, when
// kept, must still answer a PING.
func TestCVE_2022_41723_HPACKAmplification(t *testing.T) {
	bomb := append(make([]byte, 0, 300<<10), 0x40, 6) // literal, incremental indexing, new name (RFC 7541 §6.2.1)
	bomb = append(bomb, "x-bomb"...)
	bomb = append(bomb, 0x7f, 0x80|0x21, 0x1e) // value length 4000 = 127 + 0x21 + 30<<7 (RFC 7541 §5.1)
	bomb = append(bomb, strings.Repeat("b", 4000)...)
	for _, tc := range []struct {
		id    string
		extra []byte
	}{
		{"CVE-2022-41723", bytes.Repeat([]byte{0x80 | 16}, 256<<10)},                 // accept-encoding: gzip, deflate
		{"CVE-2026-49975", append(bomb, bytes.Repeat([]byte{0x80 | 62}, 64<<10)...)}, // the dynamic entry
	} {
		t.Run(tc.id, func(t *testing.T) {
			addr, ln := h2Server(t, func(c *brisk.Ctx) { c.Response.SetBodyString("ok") })
			c := dialH2(t, addr)
			block := c.headerBlock("/", tc.extra)
			go func() {
				first := true
				for len(block) > 0 {
					n := min(len(block), 16<<10)
					var err error
					if first {
						err = c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block[:n], EndStream: true, EndHeaders: n == len(block)})
					} else {
						err = c.fr.WriteContinuation(1, n == len(block), block[:n])
					}
					if err != nil {
						return
					}
					first, block = false, block[n:]
				}
				c.fr.WritePing(false, [8]byte{1})
			}()
			o := c.readUntil(1, func(o *h2Outcome) bool { return o.closed || (o.status != "" && o.pingAck) })
			t.Logf("status %q closed=%v GOAWAY=%v (%v); server read %d bytes", o.status, o.closed, o.goAway, o.code, ln.read.Load())
			if !o.closed && o.status != "431" {
				t.Errorf("status %q, want 431 or the connection closed", o.status)
			}
		})
	}
}

// TestCVE_2026_27141_FrameTypes0A0F: x/net/http2 panicked on frame
// types 0x0a..0x0f (nil parsers). Unknown frame types must be ignored
// (RFC 9113 §4.1, §5.5): after one of each, on stream 0 and on an idle
// stream, the connection answers a PING and serves a request.
func TestCVE_2026_27141_FrameTypes0A0F(t *testing.T) {
	addr, _ := h2Server(t, func(c *brisk.Ctx) { c.Response.SetBodyString("ok") })
	c := dialH2(t, addr)
	for typ := http2.FrameType(0x0a); typ <= 0x0f; typ++ {
		c.fr.WriteRawFrame(typ, 0, 0, []byte("payload"))
		c.fr.WriteRawFrame(typ, 0xff, 3, nil)
	}
	c.fr.WritePing(false, [8]byte{2})
	if err := c.get(1, "/"); err != nil {
		t.Fatal(err)
	}
	o := c.readUntil(1, func(o *h2Outcome) bool { return o.closed || (o.status != "" && o.pingAck) })
	if o.closed || o.status != "200" || !o.pingAck {
		t.Errorf("status %q ping ack=%v closed=%v GOAWAY=%v (%v), want 200, an ack and the connection open", o.status, o.pingAck, o.closed, o.goAway, o.code)
	}
}

// TestCVE_2019_9512_PingFlood: PING (CVE-2019-9512) and SETTINGS
// (CVE-2019-9515) frames, 200 000 of each sent without reading the
// acknowledgements: the server must not queue an acknowledgement per
// frame. It either closes the connection once its queue of control
// frames is full, or stops reading (TCP pushes back); either way the
// live heap grows by less than 16 MiB (a queued acknowledgement per
// frame would be tens of MiB).
func TestCVE_2019_9512_PingFlood(t *testing.T) {
	for _, tc := range []struct {
		id    string
		write func(fr *http2.Framer) error
	}{
		{"CVE-2019-9512", func(fr *http2.Framer) error { return fr.WritePing(false, [8]byte{3}) }},
		{"CVE-2019-9515", func(fr *http2.Framer) error { return fr.WriteSettings() }},
	} {
		t.Run(tc.id, func(t *testing.T) {
			addr, ln := h2Server(t, func(c *brisk.Ctx) {})
			c := dialH2(t, addr)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			n := 200000 / floodScale
			c.nc.SetWriteDeadline(time.Now().Add(3 * time.Second))
			bw := bufio.NewWriterSize(c.nc, 64<<10)
			fr := http2.NewFramer(bw, c.nc)
			sent := 0
			for ; sent < n; sent++ {
				if tc.write(fr) != nil || (sent%1000 == 999 && bw.Flush() != nil) {
					break
				}
			}
			bw.Flush()
			settle(ln)
			runtime.GC()
			runtime.ReadMemStats(&after)
			grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			c.nc.Close()
			t.Logf("sent %d frames, server read %d bytes; live heap grew by %d KiB", sent, ln.read.Load(), grown>>10)
			if grown > 16<<20 {
				t.Errorf("live heap grew by %d MiB while %d frames were unacknowledged, want < 16 MiB", grown>>20, sent)
			}
		})
	}
}

// TestCVE_2022_41721_NoH2CUpgrade: net/http's h2c handler upgraded a
// request with a body that a MaxBytesHandler had not read, smuggling it.
// brisk does not support "Upgrade: h2c": the request is served as
// HTTP/1.1 (no 101) with its body read as its body.
func TestCVE_2022_41721_NoH2CUpgrade(t *testing.T) {
	addr, _ := h2Server(t, echoTarget)
	smuggled := "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"
	a := exchange(t, addr, "POST /up HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings, close\r\nUpgrade: h2c\r\n"+
		"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nContent-Length: 35\r\n\r\n"+smuggled)
	if a.status != 200 || a.body != "/up "+smuggled {
		t.Errorf("status %d body %q, want 200 and the body echoed", a.status, a.body)
	}
}

// settle waits, up to 5 s, until the server has read nothing more for
// 200 ms: it has consumed what the kernel buffered, or stopped reading.
func settle(ln *counted) {
	last, still := int64(-1), 0
	for deadline := time.Now().Add(5 * time.Second); still < 4 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		if n := ln.read.Load(); n == last {
			still++
		} else {
			last, still = n, 0
		}
	}
}

// TestCVE_2026_56853_H2CTimeouts: net/http mishandled the read deadline
// of a connection accepted as unencrypted HTTP/2 (its fix clears
// ReadHeaderTimeout once the connection is HTTP/2). On brisk's h2c
// hand-over: a client that stops half-way through the preface is closed
// (ReadHeaderTimeout), one that goes quiet after SETTINGS is closed
// (IdleTimeout), and a request whose handler runs longer than
// ReadHeaderTimeout still gets its response on the h2c connection.
func TestCVE_2026_56853_H2CTimeouts(t *testing.T) {
	const rht = 200 * time.Millisecond
	newServer := func(h brisk.Handler) string {
		s := testserver.Quiet(&brisk.Server{H2C: true, Handler: h, ReadHeaderTimeout: rht, IdleTimeout: 2 * rht})
		if err := h2.Configure(s, h2.Config{}); err != nil {
			t.Fatal(err)
		}
		addr, _ := serve(t, s)
		return addr
	}
	addr := newServer(func(c *brisk.Ctx) {
		time.Sleep(3 * rht)
		c.Response.SetBodyString("late")
	})
	t.Run("half_preface", func(t *testing.T) {
		nc := dial(t, addr)
		io.WriteString(nc, http2.ClientPreface[:10])
		if _, err := io.Copy(io.Discard, nc); err != nil {
			t.Errorf("the connection was not closed by the server: %v", err)
		}
	})
	t.Run("quiet_after_settings", func(t *testing.T) {
		c := dialH2(t, addr)
		o := c.readUntil(0, func(o *h2Outcome) bool { return o.closed })
		if !o.closed {
			t.Errorf("an idle h2c connection stayed open (GOAWAY=%v)", o.goAway)
		}
	})
	t.Run("slow_handler_tls", func(t *testing.T) { // the same over TLS: ALPN hands over a cleared deadline
		certs := brisktest.NewTLSCerts()
		s := testserver.Quiet(&brisk.Server{Handler: func(c *brisk.Ctx) { time.Sleep(3 * rht) }, ReadHeaderTimeout: rht, IdleTimeout: 2 * rht})
		if err := h2.Configure(s, h2.Config{}); err != nil {
			t.Fatal(err)
		}
		ln := testserver.Listen(t)
		scfg := certs.ServerConfig()
		scfg.NextProtos = []string{"h2", "http/1.1"}
		testserver.Serve(t, s, tls.NewListener(ln, scfg))
		cfg := certs.ClientConfig()
		cfg.NextProtos = []string{"h2"}
		tc, err := tls.Dial("tcp", ln.Addr().String(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer tc.Close()
		tc.SetDeadline(time.Now().Add(ioTimeout))
		c := &h2Conn{nc: tc, fr: http2.NewFramer(tc, tc)}
		c.enc = hpack.NewEncoder(&c.buf)
		io.WriteString(tc, http2.ClientPreface)
		c.fr.WriteSettings()
		if err := c.get(1, "/"); err != nil {
			t.Fatal(err)
		}
		o := c.readUntil(1, func(o *h2Outcome) bool { return o.closed || o.status != "" })
		if o.status != "200" {
			t.Errorf("status %q closed=%v GOAWAY=%v (%v), want 200", o.status, o.closed, o.goAway, o.code)
		}
	})
	t.Run("slow_handler", func(t *testing.T) {
		c := dialH2(t, addr)
		if err := c.get(1, "/"); err != nil {
			t.Fatal(err)
		}
		o := c.readUntil(1, func(o *h2Outcome) bool { return o.closed || o.status != "" })
		if o.status != "200" {
			t.Errorf("status %q closed=%v GOAWAY=%v (%v), want 200", o.status, o.closed, o.goAway, o.code)
		}
	})
}

// TestH2Downgrade: brisk hands each HTTP/2 request to the brisk handler
// as HTTP/1.1 over an in-memory connection (h2.Config.Handler nil), a
// protocol downgrade like a proxy's. The downgrade advisories (Netty
// CVE-2021-21295 and CVE-2021-21409: a content-length disagreeing with
// the DATA frames; Apache CVE-2021-33193 and HAProxy CVE-2021-39240,
// CVE-2021-39241: request-line injection through :method, :path or
// :authority; h2 fields carrying CRLF or connection-specific fields)
// must not let one HTTP/2 stream become two HTTP/1.1 requests: the
// handler never sees "/smuggled", and each stream is refused or served
// once.
func TestH2Downgrade(t *testing.T) {
	seen := make(chan string, 64)
	addr, _ := h2Server(t, func(c *brisk.Ctx) {
		body, _ := c.Request.Body()
		seen <- string(c.Request.Method()) + " " + string(c.Request.Target()) + " " + string(body)
		c.Response.SetBodyString("ok")
	})
	const smuggled = "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"
	for _, tc := range []struct {
		id, name string
		fields   [][2]string // after the pseudo-header fields of a POST to /
		override [][2]string // replacing pseudo-header fields
		data     string
	}{
		{"CVE-2021-21295", "content_length_0_with_data", [][2]string{{"content-length", "0"}}, nil, smuggled},
		{"CVE-2021-21295", "content_length_short", [][2]string{{"content-length", "1"}}, nil, "x" + smuggled},
		{"CVE-2021-21409", "transfer_encoding", [][2]string{{"transfer-encoding", "chunked"}}, nil, "0\r\n\r\n" + smuggled},
		{"CVE-2021-33193", "path_with_request_line", nil, [][2]string{{":path", "/ HTTP/1.1\r\nHost: a\r\n\r\n" + smuggled[:len(smuggled)-4]}}, ""},
		{"CVE-2021-33193", "path_with_space", nil, [][2]string{{":path", "/x HTTP/1.1"}}, ""},
		{"CVE-2021-39240", "method_with_request_line", nil, [][2]string{{":method", "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\nPOST"}}, ""},
		{"CVE-2021-39241", "authority_with_crlf", nil, [][2]string{{":authority", "a\r\n\r\n" + smuggled}}, ""},
		{"CVE-2021-39241", "authority_with_space", nil, [][2]string{{":authority", "a /smuggled"}}, ""},
		{"h2-field-crlf", "field_value_crlf", [][2]string{{"x-a", "b\r\n\r\n" + smuggled}}, nil, ""},
		{"h2-field-crlf", "field_name_crlf", [][2]string{{"x-a\r\n\r\nget /smuggled http/1.1\r\nhost", "a"}}, nil, ""},
		{"h2-field-crlf", "field_value_lf", [][2]string{{"x-a", "b\nx-b: c"}}, nil, ""},
	} {
		t.Run(tc.id+"/"+tc.name, func(t *testing.T) {
			c := dialH2(t, addr)
			pseudo := [][2]string{{":method", "POST"}, {":scheme", "http"}, {":authority", "a"}, {":path", "/"}}
			for _, o := range tc.override {
				for i := range pseudo {
					if pseudo[i][0] == o[0] {
						pseudo[i][1] = o[1]
					}
				}
			}
			c.buf.Reset()
			for _, f := range append(pseudo, tc.fields...) {
				c.buf.Write(literalFieldLong(f[0], f[1]))
			}
			c.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: bytes.Clone(c.buf.Bytes()),
				EndHeaders: true, EndStream: tc.data == ""})
			if tc.data != "" {
				c.fr.WriteData(1, true, []byte(tc.data))
			}
			c.fr.WritePing(false, [8]byte{5})
			o := c.readUntil(1, func(o *h2Outcome) bool { return o.closed || (o.pingAck && (o.status != "" || o.resets > 0)) })
			c.nc.Close()
			if o.resets == 0 && !strings.HasPrefix(o.status, "4") {
				t.Errorf("status %q, %d resets, closed=%v: want the stream refused (RST_STREAM or 4xx)", o.status, o.resets, o.closed)
			}
		})
	}
	for {
		select {
		case s := <-seen:
			if s != "POST / " {
				t.Errorf("the handler saw %q, want at most an empty POST to /", s)
			}
		default:
			return
		}
	}
}

// literalFieldLong is literalField for any length of name and value
// (HPACK integers with a 7-bit prefix, RFC 7541 §5.1).
func literalFieldLong(name, value string) []byte {
	b := []byte{0}
	for _, s := range []string{name, value} {
		b = appendHPACKInt(b, len(s))
		b = append(b, s...)
	}
	return b
}

func appendHPACKInt(b []byte, n int) []byte {
	if n < 127 {
		return append(b, byte(n))
	}
	b = append(b, 127)
	for n -= 127; n >= 128; n >>= 7 {
		b = append(b, byte(n&0x7f)|0x80)
	}
	return append(b, byte(n))
}
