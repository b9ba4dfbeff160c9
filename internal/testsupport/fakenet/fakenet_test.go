package fakenet

import (
	"errors"
	"io"
	"net"
	"testing"
)

// TestConnReplays checks that a Conn hands out n requests, perRead at a
// time, across short reads, then io.EOF, and counts writes.
func TestConnReplays(t *testing.T) {
	req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	c := NewConn(Batch(req, 2), len(req), 5)
	var got []byte
	p := make([]byte, 10)
	for {
		n, err := c.Read(p)
		got = append(got, p[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if want := 5 * len(req); len(got) != want {
		t.Fatalf("read %d bytes, want %d", len(got), want)
	}
	c.Write([]byte("abc"))
	c.Write([]byte("de"))
	c.Close()
	c.Close()
	<-c.Done()
	if c.Writes() != 2 || c.Written() != 5 {
		t.Errorf("writes %d, written %d; want 2, 5", c.Writes(), c.Written())
	}
}

// TestListener checks that Accept returns pushed connections and fails
// with net.ErrClosed after Close, and that Push then reports false.
func TestListener(t *testing.T) {
	l := NewListener()
	c := NewConn(nil, 1, 0)
	go l.Push(c)
	if got, err := l.Accept(); err != nil || got != c {
		t.Fatalf("Accept = %v, %v", got, err)
	}
	l.Close()
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
	}
	if l.Push(c) {
		t.Error("Push after Close reported true")
	}
}
