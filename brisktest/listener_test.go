package brisktest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/brisk-http/brisk/internal/pipe"
)

// dialPair returns the client and server ends of one in-memory connection.
func dialPair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	ln := NewListener()
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			t.Error(err)
		}
		accepted <- c
	}()
	c, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	t.Cleanup(func() { c.Close(); s.Close() })
	return c, s
}

func TestRoundTrip(t *testing.T) {
	c, s := dialPair(t)
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := s.Read(buf)
	if err != nil || string(buf[:n]) != "ping" {
		t.Fatalf("server read %q, %v; want ping", buf[:n], err)
	}
	if _, err := s.Write([]byte("pong")); err != nil {
		t.Fatal(err)
	}
	n, err = io.ReadFull(c, buf[:4])
	if err != nil || string(buf[:n]) != "pong" {
		t.Fatalf("client read %q, %v; want pong", buf[:n], err)
	}
	if c.LocalAddr().Network() != "inmemory" || s.RemoteAddr().String() != "inmemory" {
		t.Errorf("addresses %v %v", c.LocalAddr(), s.RemoteAddr())
	}
}

// Writes up to the capacity return without a reader; the reader then gets
// the bytes in order, over several reads.
func TestBufferedWrites(t *testing.T) {
	c, s := dialPair(t)
	want := make([]byte, pipe.Capacity)
	for i := range want {
		want[i] = byte(i * 7)
	}
	for i := 0; i < len(want); i += 1000 {
		if _, err := c.Write(want[i:min(i+1000, len(want))]); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]byte, 0, len(want))
	buf := make([]byte, 3000)
	for len(got) < len(want) {
		n, err := s.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("bytes differ")
	}
}

// A Write larger than the capacity blocks until the reader makes room,
// and its bytes arrive whole.
func TestWriteBlocksWhenFull(t *testing.T) {
	c, s := dialPair(t)
	want := bytes.Repeat([]byte("0123456789abcdef"), 3*pipe.Capacity/16)
	wrote := make(chan error, 1)
	go func() {
		_, err := c.Write(want)
		wrote <- err
	}()
	select {
	case err := <-wrote:
		t.Fatalf("Write of 3×capacity returned %v before any read", err)
	case <-time.After(50 * time.Millisecond):
	}
	got, err := io.ReadAll(io.LimitReader(s, int64(len(want))))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, %v; want %d", len(got), err, len(want))
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
}

func TestDeadlines(t *testing.T) {
	tests := []struct {
		name string
		set  func(net.Conn, time.Time) error
		op   func(net.Conn) error
	}{
		{"read_deadline", net.Conn.SetReadDeadline, readOne},
		{"deadline_read", net.Conn.SetDeadline, readOne},
		{"write_deadline", net.Conn.SetWriteDeadline, fillPipe},
		{"deadline_write", net.Conn.SetDeadline, fillPipe},
	}
	for _, tt := range tests {
		t.Run(tt.name+"_future", func(t *testing.T) {
			c, _ := dialPair(t)
			start := time.Now()
			tt.set(c, start.Add(30*time.Millisecond))
			assertTimeout(t, tt.op(c))
			if d := time.Since(start); d < 25*time.Millisecond {
				t.Errorf("timed out after %v, before the deadline", d)
			}
		})
		t.Run(tt.name+"_past", func(t *testing.T) {
			c, _ := dialPair(t)
			tt.set(c, time.Unix(1, 0))
			assertTimeout(t, tt.op(c))
		})
		t.Run(tt.name+"_cleared", func(t *testing.T) {
			c, s := dialPair(t)
			tt.set(c, time.Unix(1, 0))
			tt.set(c, time.Time{})
			go func() { // unblock the operation after a while
				time.Sleep(30 * time.Millisecond)
				s.Write([]byte("x"))
				io.Copy(io.Discard, s)
			}()
			if err := tt.op(c); err != nil {
				t.Fatalf("after clearing the deadline: %v", err)
			}
		})
	}
}

// A pending read is woken by a deadline set while it waits.
func TestDeadlineWakesPendingRead(t *testing.T) {
	c, _ := dialPair(t)
	done := make(chan error, 1)
	go func() { done <- readOne(c) }()
	time.Sleep(10 * time.Millisecond)
	c.SetReadDeadline(time.Unix(1, 0))
	select {
	case err := <-done:
		assertTimeout(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("read not interrupted")
	}
}

func readOne(c net.Conn) error {
	_, err := c.Read(make([]byte, 1))
	return err
}

// fillPipe writes more than the pipe holds.
func fillPipe(c net.Conn) error {
	_, err := c.Write(make([]byte, pipe.Capacity+1))
	return err
}

func assertTimeout(t *testing.T, err error) {
	t.Helper()
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("got %v, want a net.Error timeout wrapping os.ErrDeadlineExceeded", err)
	}
}

func TestClose(t *testing.T) {
	t.Run("peer_reads_rest_then_eof", func(t *testing.T) {
		c, s := dialPair(t)
		c.Write([]byte("last words"))
		c.Close()
		got, err := io.ReadAll(s)
		if err != nil || string(got) != "last words" {
			t.Fatalf("read %q, %v", got, err)
		}
		if n, err := s.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			t.Fatalf("read after EOF: %d, %v; want io.EOF", n, err)
		}
	})
	t.Run("peer_write_fails", func(t *testing.T) {
		c, s := dialPair(t)
		s.Close()
		if _, err := c.Write([]byte("x")); !errors.Is(err, io.ErrClosedPipe) {
			t.Fatalf("write to closed peer: %v; want io.ErrClosedPipe", err)
		}
	})
	t.Run("local_io_fails", func(t *testing.T) {
		c, _ := dialPair(t)
		c.Close()
		if _, err := c.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
			t.Errorf("write after Close: %v; want net.ErrClosed", err)
		}
		if err := readOne(c); !errors.Is(err, net.ErrClosed) {
			t.Errorf("read after Close: %v; want net.ErrClosed", err)
		}
		if err := c.SetDeadline(time.Now()); !errors.Is(err, net.ErrClosed) {
			t.Errorf("SetDeadline after Close: %v; want net.ErrClosed", err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	})
	t.Run("wakes_pending", func(t *testing.T) {
		for _, side := range []string{"local", "peer"} {
			c, s := dialPair(t)
			rd, wr := make(chan error, 1), make(chan error, 1)
			go func() { rd <- readOne(c) }()
			go func() { wr <- fillPipe(c) }()
			time.Sleep(10 * time.Millisecond)
			if side == "local" {
				c.Close()
			} else {
				s.Close()
			}
			for _, ch := range []chan error{rd, wr} {
				select {
				case err := <-ch:
					if err == nil {
						t.Errorf("%s close: pending I/O returned nil", side)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("%s close did not wake pending I/O", side)
				}
			}
		}
	})
}

// TestCloseWakesEveryReader checks that Close wakes all the Reads
// pending on one end, not just one: each waiter that returns passes the
// wake-up on.
func TestCloseWakesEveryReader(t *testing.T) {
	for _, side := range []string{"local", "peer"} {
		c, s := dialPair(t)
		const readers = 3
		errs := make(chan error, readers)
		for range readers {
			go func() { errs <- readOne(c) }()
		}
		time.Sleep(10 * time.Millisecond)
		if side == "local" {
			c.Close()
		} else {
			s.Close()
		}
		want := net.ErrClosed // a Read on a closed end
		if side == "peer" {
			want = io.EOF
		}
		for range readers {
			select {
			case err := <-errs:
				if !errors.Is(err, want) {
					t.Errorf("%s close: a pending Read returned %v, want %v", side, err, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s close left a Read pending", side)
			}
		}
	}
}

// TestPeerCloseAfterDataWakesEveryReader checks the case where the
// peer writes and closes while two Reads wait: one Read takes the data, and
// the other must still get io.EOF, although the peer's Close found the
// wake-up channel already full with the write's signal.
func TestPeerCloseAfterDataWakesEveryReader(t *testing.T) {
	for range 20 {
		c, s := dialPair(t)
		type result struct {
			n   int
			err error
		}
		results := make(chan result, 2)
		for range 2 {
			go func() {
				n, err := c.Read(make([]byte, 8))
				results <- result{n, err}
			}()
		}
		time.Sleep(5 * time.Millisecond) // both Reads waiting
		s.Write([]byte("x"))
		s.Close()
		var got []result
		for range 2 {
			select {
			case r := <-results:
				got = append(got, r)
			case <-time.After(5 * time.Second):
				t.Fatalf("a Read still pending after the peer wrote and closed; got %v", got)
			}
		}
		if data, eof := got[0].n+got[1].n, got[0].err == io.EOF || got[1].err == io.EOF; data != 1 || !eof {
			t.Fatalf("Reads returned %v; want one byte and one io.EOF", got)
		}
	}
}

func TestListenerClose(t *testing.T) {
	ln := NewListener()
	ln.Close()
	if _, err := ln.Dial(); !errors.Is(err, ErrListenerClosed) {
		t.Errorf("Dial: %v; want ErrListenerClosed", err)
	}
	if _, err := ln.Accept(); !errors.Is(err, ErrListenerClosed) {
		t.Errorf("Accept: %v; want ErrListenerClosed", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewListener().DialContext(ctx, "", ""); !errors.Is(err, context.Canceled) {
		t.Errorf("DialContext: %v; want context.Canceled", err)
	}
}

// Concurrent writers and readers on both directions: every Write arrives
// whole (Writes are atomic) and nothing is lost. Run with -race.
func TestConcurrent(t *testing.T) {
	c, s := dialPair(t)
	const writers, writes, size = 4, 200, 1500
	var wg sync.WaitGroup
	for _, w := range []net.Conn{c, s} {
		for i := range writers {
			wg.Go(func() {
				msg := bytes.Repeat([]byte{byte('a' + i)}, size)
				for range writes {
					if _, err := w.Write(msg); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
	}
	var mu sync.Mutex
	total := map[net.Conn]int{}
	var readers sync.WaitGroup
	for _, r := range []net.Conn{c, s} {
		for range 2 {
			readers.Go(func() {
				buf := make([]byte, 700)
				for {
					n, err := r.Read(buf)
					mu.Lock()
					total[r] += n
					mu.Unlock()
					if err != nil {
						return
					}
				}
			})
		}
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		done := total[c] == writers*writes*size && total[s] == writers*writes*size
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	c.SetReadDeadline(time.Unix(1, 0))
	s.SetReadDeadline(time.Unix(1, 0))
	readers.Wait()
	if total[c] != writers*writes*size || total[s] != writers*writes*size {
		t.Fatalf("read %d and %d bytes, want %d each", total[c], total[s], writers*writes*size)
	}
}

// Pipelined requests: the client writes several requests before reading
// any response, with no concurrent reader.
