package hostile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

const (
	slowConns         = 300                    // attacking connections kept open
	slowByteEvery     = 200 * time.Millisecond // one head byte per connection this often
	readHeaderTimeout = time.Second
	rateWindow        = 250 * time.Millisecond // each rate measurement
	ratePairs         = 3                      // attacked windows per test or benchmark round
	attackWarmup      = 1100 * time.Millisecond
	maxQuietSpread    = 1.25 // unloaded neighbours further apart: inconclusive pair
)

// TestSlowloris keeps 300 connections trickling an endless request head
// one byte every 200 ms (each one replaced as soon as the server closes
// it), and requires the server to close each at ReadHeaderTimeout (1 s)
// after its first byte, without answering, while a normal keep-alive
// client is served throughout: every one of its requests during the
// attack gets its answer. How much of its unloaded rate it keeps is a
// measure, not a pass/fail condition: BenchmarkSlowloris reports it.
func TestSlowloris(t *testing.T) {
	if testing.Short() {
		t.Skip("slowloris takes a few seconds; skipped in -short mode")
	}
	checkLeaks(t)
	addr, ln := startServer(t, &brisk.Server{ReadHeaderTimeout: readHeaderTimeout})
	var served float64
	for range ratePairs {
		served += attackedRate(t, addr, ln)
	}
	if served == 0 {
		t.Errorf("the normal client completed no request under attack")
	}
}

// BenchmarkSlowloris measures the normal client's request rate under the
// attack of TestSlowloris as a fraction of its rate without it, in short
// interleaved windows, A B A B ... A: each B (attacked) is compared with
// the mean of the A just before and after it, so that the machine's
// drift weighs on both sides alike, and pairs whose two A differ by more
// than 25 % are left out. It reports the median ratio as attacked/quiet
// (1.0: the attack costs the normal client nothing):
//
//	go test -run '^$' -bench Slowloris -benchtime 1x -count 5 ./tests/hostile
func BenchmarkSlowloris(b *testing.B) {
	addr, ln := startServer(b, &brisk.Server{ReadHeaderTimeout: readHeaderTimeout})
	var ratios []float64
	for range b.N {
		quiet := []float64{measureRate(b, addr, rateWindow)}
		var loaded []float64
		for range ratePairs {
			loaded = append(loaded, attackedRate(b, addr, ln))
			quiet = append(quiet, measureRate(b, addr, rateWindow))
		}
		b.Logf("normal client unloaded %s req/s, attacked %s req/s", rates(quiet), rates(loaded))
		ratios = append(ratios, pairRatios(quiet, loaded)...)
	}
	if len(ratios) == 0 {
		b.Skip("machine too noisy: no pair had steady unloaded rates")
	}
	b.ReportMetric(median(ratios), "attacked/quiet")
}

// attackedRate runs the attack for attackWarmup, measures the normal
// client's rate for rateWindow, stops the attack and checks what the
// attackers and the server saw. It returns the rate.
func attackedRate(t testing.TB, addr string, ln *listener) float64 {
	t.Helper()
	attackStart := time.Now()
	a := startSlowloris(addr, slowConns)
	time.Sleep(attackWarmup)
	rate := measureRate(t, addr, rateWindow)
	stopAt := time.Now()
	st := a.stop()
	t.Logf("%.0f req/s under %d slowloris connections; %s; %s", rate, slowConns, st,
		checkHeadTimeouts(t, ln.silentConns(attackStart), stopAt))
	if st.answered > 0 {
		t.Errorf("%d attacking connections got response bytes, want none", st.answered)
	}
	return rate
}

// pairRatios returns, for each attacked rate loaded[i], its ratio to the
// mean of the unloaded rates around it (quiet[i] and quiet[i+1]), leaving
// out the pairs whose two unloaded rates differ by more than
// maxQuietSpread.
func pairRatios(quiet, loaded []float64) []float64 {
	var out []float64
	for i, l := range loaded {
		a, b := quiet[i], quiet[i+1]
		if min(a, b) <= 0 || max(a, b) > maxQuietSpread*min(a, b) {
			continue
		}
		out = append(out, l/((a+b)/2))
	}
	return out
}

// median returns the median of v (the mean of the middle two for an even
// length); v is sorted in place.
func median(v []float64) float64 {
	slices.Sort(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}

func rates(v []float64) string { return formatAll(v, "%.0f", 1) }

func formatAll(v []float64, format string, scale float64) string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprintf(format, scale*x)
	}
	return "[" + strings.Join(out, " ") + "]"
}

// checkHeadTimeouts checks, on the server side, the attacking connections
// (read from, never written to): those the server closed before stopAt
// must have lived ReadHeaderTimeout from their first byte (scheduling may
// add up to 1.5 s), and none may still be open past that. It returns a
// summary of the close delays.
func checkHeadTimeouts(t testing.TB, conns []silentConn, stopAt time.Time) string {
	t.Helper()
	const lo, hi = readHeaderTimeout - 50*time.Millisecond, readHeaderTimeout + 1500*time.Millisecond
	var d []time.Duration
	var early, late int
	for _, c := range conns {
		switch {
		case !c.closed.IsZero() && c.closed.Before(stopAt):
			took := c.closed.Sub(c.first)
			d = append(d, took)
			if took < lo {
				early++
			}
		case stopAt.Sub(c.first) > hi:
			late++
		}
	}
	if len(d) == 0 {
		t.Errorf("the server closed no attacking connection at ReadHeaderTimeout")
		return "no server-side close"
	}
	slices.Sort(d)
	if early > 0 || d[len(d)-1] > hi || late > 0 {
		t.Errorf("attacking connections: %d closed before %v, latest close after %v (want <= %v), %d still open past %v",
			early, lo, d[len(d)-1], hi, late, hi)
	}
	return fmt.Sprintf("server closed %d at %v..%v after their first byte (median %v)",
		len(d), d[0].Round(time.Millisecond), d[len(d)-1].Round(time.Millisecond), d[len(d)/2].Round(time.Millisecond))
}

// measureRate runs a normal client for d: two goroutines, each sending
// GET /hello on a keep-alive connection and reading the answer, opening a
// new connection every 100 requests. It returns completed requests per
// second.
func measureRate(t testing.TB, addr string, d time.Duration) float64 {
	t.Helper()
	var done atomic.Int64
	var failed atomic.Value
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if err := normalClient(addr, deadline, &done); err != nil {
				failed.Store(err)
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		t.Fatalf("normal client: %v", err)
	}
	return float64(done.Load()) / d.Seconds()
}

// normalClient sends requests until deadline, counting answered ones.
func normalClient(addr string, deadline time.Time, done *atomic.Int64) error {
	req := []byte("GET /hello HTTP/1.1\r\nHost: normal\r\n\r\n")
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			return err
		}
		c.SetDeadline(deadline.Add(2 * time.Second))
		br := bufio.NewReader(c)
		for i := 0; i < 100 && time.Now().Before(deadline); i++ {
			if _, err := c.Write(req); err != nil {
				c.Close()
				return err
			}
			resp, body, err := readResponse(br, "GET")
			if err != nil || resp.StatusCode != 200 || string(body) != "Hello, World!" {
				c.Close()
				return fmt.Errorf("request %d: %v %v %q", i, err, resp, body)
			}
			done.Add(1)
		}
		c.Close()
	}
	return nil
}

// slowloris is a running attack.
type slowloris struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	st     slowStats
}

// slowStats is what the attackers saw.
type slowStats struct {
	conns     int // connections opened
	closed    int // connections the server closed (or answered) first
	answered  int // connections that received any byte
	dialFails int // dials that failed (accept queue full on a loaded machine)
}

func (s slowStats) String() string {
	return fmt.Sprintf("attackers opened %d connections, saw %d closed, %d answered, %d dial failures",
		s.conns, s.closed, s.answered, s.dialFails)
}

// startSlowloris starts n attackers, each keeping one trickling connection
// open and replacing it when the server closes it.
func startSlowloris(addr string, n int) *slowloris {
	ctx, cancel := context.WithCancel(context.Background())
	a := &slowloris{cancel: cancel}
	for range n {
		a.wg.Go(func() {
			for ctx.Err() == nil {
				a.trickle(ctx, addr)
			}
		})
	}
	return a
}

// stop ends the attack and returns what the attackers saw.
func (a *slowloris) stop() slowStats {
	a.cancel()
	a.wg.Wait()
	return a.st
}

// trickle opens one connection and writes an endless head one byte at a
// time until the server closes the connection or ctx ends.
func (a *slowloris) trickle(ctx context.Context, addr string) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		a.record(func(s *slowStats) { s.dialFails++ })
		time.Sleep(slowByteEvery)
		return
	}
	defer c.Close()
	a.record(func(s *slowStats) { s.conns++ })
	closed := make(chan struct{})
	go func() { // the server's close (or answer) ends the read
		n, _ := io.Copy(io.Discard, c)
		if n > 0 {
			a.record(func(s *slowStats) { s.answered++ })
		}
		if ctx.Err() == nil {
			a.record(func(s *slowStats) { s.closed++ })
		}
		close(closed)
	}()
	head := "GET / HTTP/1.1\r\nHost: slow\r\nX-Slow: "
	tick := time.NewTicker(slowByteEvery)
	defer tick.Stop()
	for i := 0; ; i++ {
		b := byte('a' + i%26)
		if i < len(head) {
			b = head[i]
		}
		if _, err := c.Write([]byte{b}); err != nil {
			break
		}
		select {
		case <-ctx.Done():
			c.Close()
			<-closed
			return
		case <-closed:
			return
		case <-tick.C:
		}
	}
	c.Close()
	<-closed
}

func (a *slowloris) record(f func(*slowStats)) {
	a.mu.Lock()
	f(&a.st)
	a.mu.Unlock()
}
