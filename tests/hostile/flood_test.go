package hostile

import (
	"bufio"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestPipelineFlood writes 20000 pipelined requests on each of 8
// connections as fast as the socket takes them, while reading: every
// request must be answered, in order (the echoed request-target is
// checked), with a bounded heap and no goroutine left behind.
func TestPipelineFlood(t *testing.T) {
	checkLeaks(t)
	const conns, perConn = 8, 20000
	addr, ln := startServer(t, &brisk.Server{})
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	for i := range conns {
		wg.Go(func() {
			if err := floodConn(addr, i, perConn); err != nil {
				errs <- fmt.Errorf("connection %d: %w", i, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	took := time.Since(start)
	t.Logf("%d pipelined requests on %d connections answered in %v (%.0f req/s); server read %d KiB",
		conns*perConn, conns, took.Round(time.Millisecond), float64(conns*perConn)/took.Seconds(), ln.bytesRead.Load()>>10)
}

// floodConn pipelines n echo requests on one connection from one goroutine
// and reads and checks the answers from another.
func floodConn(addr string, id, n int) error {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	wrote := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(c, 32<<10)
		for i := range n {
			fmt.Fprintf(bw, "GET /f/%d/%d HTTP/1.1\r\nHost: flood\r\nX-Seq: %d\r\n\r\n", id, i, i)
		}
		wrote <- bw.Flush()
	}()
	br := bufio.NewReaderSize(c, 64<<10)
	for i := range n {
		resp, body, err := readResponse(br, "GET")
		if err != nil {
			return fmt.Errorf("response %d: %w", i, err)
		}
		if resp.StatusCode != 200 {
			return fmt.Errorf("response %d: status %d", i, resp.StatusCode)
		}
		if want := fmt.Sprintf(`"uri":"%s"`, b64(fmt.Sprintf("/f/%d/%d", id, i))); !containsString(body, want) {
			return fmt.Errorf("response %d out of order or wrong: %.120s", i, body)
		}
	}
	return <-wrote
}
