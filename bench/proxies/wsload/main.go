// Command wsload is the WebSocket load generator of bench/proxy.sh: it
// opens -c connections to a WebSocket echo (ws://ADDR/ws), and on each
// sends a -size byte text message and waits for its echo, again and
// again, for -d. It prints the messages echoed per second over all
// connections and the 99th percentile of their round trips in
// microseconds: "msgs/s p99_us".
package main

import (
	"bufio"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "the proxy's `address`")
	conns := flag.Int("c", 64, "connections")
	size := flag.Int("size", 100, "message size in `bytes` (at most 125)")
	dur := flag.Duration("d", 5*time.Second, "how long to send")
	flag.Parse()
	if *size > 125 {
		log.Fatal("-size: at most 125 bytes (one-byte payload length)")
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var rtts []time.Duration
	start := time.Now()
	stop := start.Add(*dur)
	for range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := run(*addr, *size, stop)
			if err != nil {
				log.Print(err)
			}
			mu.Lock()
			rtts = append(rtts, got...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(rtts) == 0 {
		log.Fatal("no message echoed")
	}
	slices.Sort(rtts)
	p99 := rtts[len(rtts)*99/100]
	fmt.Printf("%.0f %d\n", float64(len(rtts))/elapsed.Seconds(), p99.Microseconds())
}

// run opens one WebSocket connection and echoes messages on it until
// stop, returning each round trip.
func run(addr string, size int, stop time.Time) ([]time.Duration, error) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	nc.SetDeadline(stop.Add(10 * time.Second))
	key := make([]byte, 16)
	rand.Read(key)
	fmt.Fprintf(nc, "GET /ws HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"+
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: %s\r\n\r\n", addr, base64.StdEncoding.EncodeToString(key))
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		return nil, fmt.Errorf("handshake: %s", resp.Status)
	}
	// A masked text frame (RFC 6455 §5.2) with a zero mask: the payload
	// goes as is.
	frame := append([]byte{0x81, 0x80 | byte(size), 0, 0, 0, 0}, make([]byte, size)...)
	echo := make([]byte, 2+size)
	var rtts []time.Duration
	for time.Now().Before(stop) {
		t := time.Now()
		if _, err := nc.Write(frame); err != nil {
			return rtts, err
		}
		if _, err := io.ReadFull(br, echo); err != nil {
			return rtts, err
		}
		if echo[0] != 0x81 || int(echo[1]) != size {
			return rtts, errors.New("unexpected frame")
		}
		rtts = append(rtts, time.Since(t))
	}
	return rtts, nil
}
