// Command idleconns holds idle keep-alive connections open to a server,
// for the mixed idle profile of bench/profiles.sh: it opens -n
// connections to -addr, sends one GET on each and reads its response,
// prints "ready N" on stdout once N are open and answered, then holds
// them without a byte more until SIGTERM or SIGINT, when it prints
// "open N": how many the server had not closed by then.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "server `address`")
	n := flag.Int("n", 10000, "`connections` to hold")
	flag.Parse()
	req := []byte("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	var open atomic.Int64
	var connected sync.WaitGroup   // the connect phase of each connection
	sem := make(chan struct{}, 64) // connects in flight
	for range *n {
		sem <- struct{}{}
		connected.Add(1)
		go func() {
			c, ok := connect(*addr, req)
			<-sem
			if ok {
				open.Add(1)
			}
			connected.Done()
			if ok {
				c.Read(make([]byte, 1)) // returns when the server closes it
				open.Add(-1)
			}
		}()
	}
	connected.Wait()
	fmt.Println("ready", open.Load())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	fmt.Println("open", open.Load())
}

// connect dials addr, sends req and reads the start of its response.
func connect(addr string, req []byte) (net.Conn, bool) {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		log.Printf("dial: %v", err)
		return nil, false
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err = c.Write(req); err == nil {
		_, err = c.Read(make([]byte, 512))
	}
	if err != nil {
		c.Close()
		return nil, false
	}
	c.SetDeadline(time.Time{})
	return c, true
}
