package load

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rawServer is a TCP test server that answers every request head (bodies
// are not expected) with the bytes its respond function returns for the
// response's global index i, written in two pieces split at split(i).
type rawServer struct {
	ln      net.Listener
	served  atomic.Int64 // responses written
	written atomic.Int64 // bytes written
	respond func(i int64) (resp []byte, closeAfter bool)
	stall   func(i int64) time.Duration // delay before response i; nil: none
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   map[net.Conn]bool // closed by the test cleanup
}

func startRaw(t *testing.T, respond func(i int64) ([]byte, bool)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln, respond: respond, conns: map[net.Conn]bool{}}
	s.wg.Go(s.accept)
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *rawServer) url() string { return "http://" + s.ln.Addr().String() + "/" }

func (s *rawServer) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Go(func() { s.serve(c) })
	}
}

func (s *rawServer) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		for { // request head: lines up to the empty one
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if line == "\r\n" {
				break
			}
		}
		i := s.served.Add(1) - 1
		if s.stall != nil {
			time.Sleep(s.stall(i))
		}
		resp, closeAfter := s.respond(i)
		s.written.Add(int64(len(resp))) // before writing: the client may finish as soon as it reads
		cut := int(i) % (len(resp) + 1)
		if _, err := c.Write(resp[:cut]); err != nil {
			return
		}
		if _, err := c.Write(resp[cut:]); err != nil {
			return
		}
		if closeAfter { // close gracefully: unread requests must not turn into a reset
			c.(*net.TCPConn).CloseWrite()
			c.SetReadDeadline(time.Now().Add(time.Second))
			io.Copy(io.Discard, c)
			return
		}
	}
}

// plain is a fixed 200 response with a Content-Length body.
func plain(int64) ([]byte, bool) {
	return []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"), false
}

// mixed varies framing and size by index: Content-Length, chunked
// (several chunks, a chunk-ext and a trailer), 204 with no body.
func mixed(i int64) ([]byte, bool) {
	body := strings.Repeat("x", int(i%7)*300)
	switch i % 3 {
	case 0:
		return []byte("HTTP/1.1 200 OK\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n" + body), false
	case 1:
		var b strings.Builder
		b.WriteString("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
		for _, part := range []string{body, "abc", body} {
			if part != "" {
				b.WriteString(strings.ToUpper(strconvHex(len(part))) + ";ext=1\r\n" + part + "\r\n")
			}
		}
		b.WriteString("0\r\nX-Trailer: t\r\n\r\n")
		return []byte(b.String()), false
	}
	return []byte("HTTP/1.1 204 No Content\r\nX-Seq: " + itoa(int(i)) + "\r\n\r\n"), false
}

func itoa(n int) string { return strconv.Itoa(n) }

func strconvHex(n int) string { return strconv.FormatInt(int64(n), 16) }
