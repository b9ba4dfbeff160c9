package brisk

import (
	"bytes"
	"testing"
	"time"
)

func TestPipelinedRequestsInMemory(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) { c.Response.SetBodyString("ok") }})
	nc, err := ts.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	const n = 200
	for range n {
		if _, err := nc.Write([]byte("GET / HTTP/1.1\r\nHost: a\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
	}
	var got []byte
	buf := make([]byte, 4096)
	for bytes.Count(got, []byte("HTTP/1.1 200 OK\r\n")) < n {
		k, err := nc.Read(buf)
		if err != nil {
			t.Fatalf("after %d responses: %v", bytes.Count(got, []byte("HTTP/1.1 200 OK\r\n")), err)
		}
		got = append(got, buf[:k]...)
	}
}
