package bench

import (
	"bytes"
	"compress/gzip"
	"io"
	"log"
	"net"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/decode"
	"github.com/valyala/fasthttp"
)

// gzipJSON is an 8 KiB JSON-like body and its gzip encoding.
var gzipJSON, gzipJSONEncoded = func() ([]byte, []byte) {
	var plain bytes.Buffer
	for i := 0; plain.Len() < 8<<10; i++ {
		plain.WriteString(`{"id":12345,"name":"brisk","tags":["fast","strict"],"ok":true},`)
	}
	var enc bytes.Buffer
	w := gzip.NewWriter(&enc)
	w.Write(plain.Bytes())
	w.Close()
	return plain.Bytes(), enc.Bytes()
}()

// gzipEndpoint starts a fasthttp server on loopback answering every
// request with gzipJSONEncoded and "Content-Encoding: gzip".
func gzipEndpoint(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	s := &fasthttp.Server{Logger: log.New(io.Discard, "", 0), Handler: func(c *fasthttp.RequestCtx) {
		c.Response.Header.Set("Content-Encoding", "gzip")
		c.Response.SetBody(gzipJSONEncoded)
	}}
	go s.Serve(ln)
	b.Cleanup(func() { s.Shutdown() })
	return "http://" + ln.Addr().String() + "/json"
}

// BenchmarkClientGetGzip: GETs of an 8 KiB body sent gzipped (about 200
// bytes), decoded by the client: brisk with its default decoder
// (compress/gzip) and with package decode (klauspost/compress), and
// net/http's Transport (transparent gzip), over TCP loopback.
func BenchmarkClientGetGzip(b *testing.B) {
	b.Run("brisk", func(b *testing.B) { benchBriskGzip(b, nil) })
	b.Run("brisk-klauspost", func(b *testing.B) { benchBriskGzip(b, []brisk.ContentDecoder{decode.Gzip()}) })
	b.Run("nethttp", func(b *testing.B) {
		uri := gzipEndpoint(b)
		tr := &http.Transport{MaxIdleConnsPerHost: 1024}
		c := &http.Client{Transport: tr}
		defer tr.CloseIdleConnections()
		runGzip(b, nethttpDo(c, uri, len(gzipJSON)+1))
	})
}

func benchBriskGzip(b *testing.B, ds []brisk.ContentDecoder) {
	uri := gzipEndpoint(b)
	c := &brisk.Client{ClientConfig: brisk.ClientConfig{Decoders: ds}}
	defer c.CloseIdleConnections()
	runGzip(b, func() (clientDo, error) {
		var req brisk.Request
		var resp brisk.Response
		req.SetURI(uri)
		return func() (int, []byte, error) {
			err := c.Do(&req, &resp)
			return resp.StatusCode(), resp.Body(), err
		}, nil
	})
}

// runGzip is runClient checking for the decoded body.
func runGzip(b *testing.B, newDo func() (clientDo, error)) {
	b.ReportAllocs()
	b.ResetTimer()
	defer processCPUClock(b)()
	b.RunParallel(func(pb *testing.PB) {
		do, err := newDo()
		if err != nil {
			b.Error(err)
			return
		}
		for pb.Next() {
			status, body, err := do()
			if err != nil || status != 200 || !bytes.Equal(body, gzipJSON) {
				b.Errorf("%d, %d bytes, %v", status, len(body), err)
				return
			}
		}
	})
}
