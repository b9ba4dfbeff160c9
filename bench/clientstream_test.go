package bench

import (
	"bytes"
	"io"
	"log"
	"net"
	"net/http"
	"testing"

	"github.com/brisk-http/brisk"
	"github.com/valyala/fasthttp"
)

// streamBodySize is the body each BenchmarkClientPostStream request
// streams.
const streamBodySize = 64 << 10

// plainReader hides the io.WriterTo and Len of a bytes.Reader, so that
// each client sees an opaque io.Reader, as from a file or a pipe.
type plainReader struct{ r *bytes.Reader }

func (p *plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// postEndpoint starts a fasthttp server on loopback that reads each
// request body and answers "Hello, World!".
func postEndpoint(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	s := &fasthttp.Server{Logger: log.New(io.Discard, "", 0), Handler: func(c *fasthttp.RequestCtx) {
		if len(c.PostBody()) != streamBodySize {
			c.SetStatusCode(400)
			return
		}
		c.Response.SetBody(clientHelloBody)
	}}
	go s.Serve(ln)
	b.Cleanup(func() { s.Shutdown() })
	return "http://" + ln.Addr().String() + "/upload"
}

// BenchmarkClientPostStream: each client POSTs a 64 KiB body read from an
// io.Reader (with its length, so sent with Content-Length) over TCP
// loopback to a fasthttp server, from GOMAXPROCS goroutines. cpu-ns/op
// counts client and server (see client_test.go).
func BenchmarkClientPostStream(b *testing.B) {
	body := bytes.Repeat([]byte("0123456789abcdef"), streamBodySize/16)
	b.Run("brisk", func(b *testing.B) {
		uri := postEndpoint(b)
		c := &brisk.Client{}
		defer c.CloseIdleConnections()
		runClient(b, endpoint{uri: uri}, func() (clientDo, error) {
			var req brisk.Request
			var resp brisk.Response
			r := &plainReader{bytes.NewReader(body)}
			return func() (int, []byte, error) {
				req.SetMethod("POST")
				req.SetURI(uri)
				r.r.Reset(body)
				req.SetBodyStream(r, streamBodySize)
				err := c.Do(&req, &resp)
				return resp.StatusCode(), resp.Body(), err
			}, nil
		})
	})
	b.Run("fasthttp", func(b *testing.B) {
		uri := postEndpoint(b)
		c := &fasthttp.Client{}
		defer c.CloseIdleConnections()
		runClient(b, endpoint{uri: uri}, func() (clientDo, error) {
			var req fasthttp.Request
			var resp fasthttp.Response
			r := &plainReader{bytes.NewReader(body)}
			return func() (int, []byte, error) {
				req.Header.SetMethod("POST")
				req.SetRequestURI(uri)
				r.r.Reset(body)
				req.SetBodyStream(r, streamBodySize)
				err := c.Do(&req, &resp)
				return resp.StatusCode(), resp.Body(), err
			}, nil
		})
	})
	b.Run("nethttp", func(b *testing.B) {
		uri := postEndpoint(b)
		tr := &http.Transport{MaxIdleConnsPerHost: 1024}
		c := &http.Client{Transport: tr}
		defer tr.CloseIdleConnections()
		runClient(b, endpoint{uri: uri}, func() (clientDo, error) {
			r := &plainReader{bytes.NewReader(body)}
			buf := make([]byte, 64)
			return func() (int, []byte, error) {
				r.r.Reset(body)
				req, err := http.NewRequest("POST", uri, io.NopCloser(r))
				if err != nil {
					return 0, nil, err
				}
				req.ContentLength = streamBodySize
				resp, err := c.Do(req)
				if err != nil {
					return 0, nil, err
				}
				n, err := readBody(resp.Body, buf)
				resp.Body.Close()
				return resp.StatusCode, buf[:n], err
			}, nil
		})
	})
}
