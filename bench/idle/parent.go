package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// mem is one "mem" line of the child.
type mem struct {
	rssKB       int64
	heap, stack int64 // bytes
	other       int64 // bytes, MemStats.OtherSys
	goroutines  int64
}

// result is one server's measurement.
type result struct {
	server      string
	conns       int
	base, after mem
}

// child is a running server process and its command pipes.
type child struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// measure runs the server name in a child, opens n idle keep-alive
// connections to it and returns the memory before and after. The child is
// killed when timeout expires.
func measure(name string, n int, settle, timeout time.Duration) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ch, addr, err := startChild(ctx, name)
	if err != nil {
		return result{}, err
	}
	defer ch.stop()
	r := result{server: name, conns: n}
	if err := openConns(ctx, addr, 8, 8, true); err != nil {
		return r, fmt.Errorf("warm-up: %w", err)
	}
	time.Sleep(200 * time.Millisecond)
	if r.base, err = ch.measure(); err != nil {
		return r, err
	}
	conns, err := keepConns(ctx, addr, n)
	defer closeConns(conns)
	if err != nil {
		return r, fmt.Errorf("after %d connections: %w", len(conns), err)
	}
	select {
	case <-time.After(settle):
	case <-ctx.Done():
		return r, ctx.Err()
	}
	r.after, err = ch.measure()
	return r, err
}

// startChild starts this program as the server name and returns it with
// the address it listens on.
func startChild(ctx context.Context, name string) (*child, string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	cmd := exec.CommandContext(ctx, exe, "-server", name)
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = 5 * time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	ch := &child{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	line, err := ch.line()
	addr, ok := strings.CutPrefix(line, "addr ")
	if err != nil || !ok {
		ch.stop()
		return nil, "", fmt.Errorf("child did not start: %q %v", line, err)
	}
	return ch, addr, nil
}

// line returns the child's next output line.
func (ch *child) line() (string, error) {
	if !ch.out.Scan() {
		if err := ch.out.Err(); err != nil {
			return "", err
		}
		return "", io.ErrUnexpectedEOF
	}
	return ch.out.Text(), nil
}

// measure asks the child for its memory figures.
func (ch *child) measure() (mem, error) {
	if _, err := io.WriteString(ch.in, "measure\n"); err != nil {
		return mem{}, err
	}
	line, err := ch.line()
	if err != nil {
		return mem{}, err
	}
	var m mem
	if _, err := fmt.Sscanf(line, "mem %d %d %d %d %d", &m.rssKB, &m.heap, &m.stack, &m.other, &m.goroutines); err != nil {
		return mem{}, fmt.Errorf("child said %q: %w", line, err)
	}
	return m, nil
}

// stop ends the child: stdin closed, then killed if still running after
// the command's WaitDelay.
func (ch *child) stop() {
	ch.in.Close()
	done := make(chan struct{})
	go func() { ch.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		ch.cmd.Process.Kill()
		<-done
	}
}

// holdConns opens n idle keep-alive connections to addr, says so on
// stdout and holds them until stdin ends.
func holdConns(addr string, n int) error {
	conns, err := keepConns(context.Background(), addr, n)
	defer closeConns(conns)
	if err != nil {
		return err
	}
	fmt.Printf("held %d\n", len(conns))
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// keepConns opens n connections with 32 dialers, each doing one request,
// and returns them open: on error, those opened so far.
func keepConns(ctx context.Context, addr string, n int) ([]net.Conn, error) {
	conns := make([]net.Conn, 0, n)
	var mu sync.Mutex
	err := openConnsFunc(ctx, addr, n, 32, func(c net.Conn) {
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
	})
	return conns, err
}

// closeConns closes each of conns.
func closeConns(conns []net.Conn) {
	for _, c := range conns {
		c.Close()
	}
}

// openConns opens n connections with workers dialers, each doing one
// request; close closes each after its response.
func openConns(ctx context.Context, addr string, n, workers int, close bool) error {
	return openConnsFunc(ctx, addr, n, workers, func(c net.Conn) {
		if close {
			c.Close()
		}
	})
}

// openConnsFunc opens n connections to addr, workers at a time, sends one
// GET on each, reads and checks its response, and passes the connection,
// open and idle, to keep.
func openConnsFunc(ctx context.Context, addr string, n, workers int, keep func(net.Conn)) error {
	jobs := make(chan struct{})
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range jobs {
				c, err := oneRequest(ctx, addr)
				if err != nil {
					errs <- err
					return
				}
				keep(c)
			}
		})
	}
	var err error
feed:
	for range n {
		select {
		case jobs <- struct{}{}:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

// oneRequest dials addr, sends a keep-alive GET and reads the response.
func oneRequest(ctx context.Context, addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: 10 * time.Second}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: idle\r\n\r\n"); err != nil {
		c.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(c, 512), nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	if err == nil && (resp.StatusCode != 200 || string(body) != helloBody || resp.Close) {
		err = errors.New("unexpected response: " + resp.Status)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	c.SetDeadline(time.Time{})
	return c, nil
}

// report prints one row per server: growth per connection of the RSS and
// of the Go heap and stacks, in KB, and the RSS ratio to fasthttp.
func report(w io.Writer, rs []result) {
	per := func(r result) float64 { return float64(r.after.rssKB-r.base.rssKB) / float64(r.conns) }
	var base float64
	for _, r := range rs {
		if r.server == "fasthttp" {
			base = per(r)
		}
	}
	fmt.Fprintf(w, "%-16s %7s %12s %12s %13s %13s %11s %9s\n",
		"server", "conns", "RSS KB/conn", "heap KB/conn", "stack KB/conn", "other KB/conn", "goroutines", "vs fasthttp")
	for _, r := range rs {
		ratio := "-"
		if base > 0 {
			ratio = fmt.Sprintf("%.2fx", per(r)/base)
		}
		fmt.Fprintf(w, "%-16s %7d %12.2f %12.2f %13.2f %13.2f %11d %9s\n", r.server, r.conns, per(r),
			float64(r.after.heap-r.base.heap)/1024/float64(r.conns),
			float64(r.after.stack-r.base.stack)/1024/float64(r.conns),
			float64(r.after.other-r.base.other)/1024/float64(r.conns),
			r.after.goroutines-r.base.goroutines, ratio)
	}
}
