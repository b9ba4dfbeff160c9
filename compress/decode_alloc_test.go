//go:build !race

package compress

import (
	"io"
	"strconv"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestAllocsPerDecodedRequest: once warm, a keep-alive POST whose 60 KiB
// JSON body is decoded with BodyReader allocates once (the reader
// returned), whatever the coding: the decoders are pooled.
func TestAllocsPerDecodedRequest(t *testing.T) {
	for _, coding := range []string{"", Gzip, Zstd, Brotli} {
		t.Run("coding="+coding, func(t *testing.T) {
			exchange := decodingServer(t, coding)
			exchange()
			exchange()
			if n := testing.AllocsPerRun(50, exchange); n > 1 {
				t.Errorf("%v allocs per decoded request, want at most 1", n)
			}
		})
	}
}

// BenchmarkBodyReader measures a keep-alive POST of a 60 KiB JSON body
// decoded with BodyReader, over loopback TCP.
func BenchmarkBodyReader(b *testing.B) {
	for _, coding := range []string{"", Gzip, Zstd, Brotli} {
		b.Run("coding="+coding, func(b *testing.B) {
			exchange := decodingServer(b, coding)
			exchange()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				exchange()
			}
		})
	}
}

// decodingServer serves a handler reading the request body through
// BodyReader and answering 200 when it decodes to the JSON body, and
// returns a function sending it one such POST in coding ("" for none) on
// a keep-alive connection (see keepAliveExchange).
func decodingServer(t testing.TB, coding string) (exchange func()) {
	plain := jsonBody(60 << 10)
	body := plain
	if coding != "" {
		body = encode(t, coding, plain)
	}
	buf := make([]byte, 16<<10) // the handler's, reused: requests come one at a time
	h := func(c *brisk.Ctx) {
		r, err := BodyReader(c, 0)
		if err != nil {
			c.Response.SetStatusCode(Status(err))
			return
		}
		n := 0
		for err == nil {
			var m int
			m, err = r.Read(buf)
			n += m
		}
		r.Close()
		if err != io.EOF || n != len(plain) {
			c.Response.SetStatusCode(500)
		}
	}
	head := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n"
	if coding != "" {
		head += "Content-Encoding: " + coding + "\r\n"
	}
	exchange, _ = keepAliveExchange(t, h, append([]byte(head+"\r\n"), body...))
	return exchange
}
