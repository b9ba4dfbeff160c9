// Package testserver runs a brisk.Server on a loopback TCP port for the
// duration of one test. It is test support for the suites under tests/ and
// the subpackages; the root package keeps its own helpers (an import cycle).
package testserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// ParkEnv names the environment variable that, set to 1 (or detach,
// which the root package's tests also read), makes Serve park idle
// connections at once (Server.ParkIdleAfter -1), so that a test suite
// can be run again with parking at every wait: BRISK_TEST_PARK=1 go test
// ./... Set to off, it turns parking off (Server.NoParkIdle). A server
// that set NoParkIdle or ParkIdleAfter keeps its setting.
const ParkEnv = "BRISK_TEST_PARK"

// ShutdownTimeout bounds the graceful Shutdown run when the test ends.
const ShutdownTimeout = 5 * time.Second

// Start serves s on a new listener at 127.0.0.1:0 until the test ends and
// returns the listener's address as "host:port". See Serve for the cleanup.
func Start(t testing.TB, s *brisk.Server) (addr string) {
	t.Helper()
	ln := Listen(t)
	Serve(t, s, ln)
	return ln.Addr().String()
}

// Listen returns a TCP listener on 127.0.0.1:0, failing the test if it
// cannot be opened. Pass it (or a wrapper of it) to Serve, which closes it.
func Listen(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// Serve runs s.Serve(ln) in a goroutine until the test ends. Its cleanup
// calls s.Shutdown with a ShutdownTimeout deadline, then waits for Serve to
// return and reports an error unless Shutdown returned nil and Serve
// returned brisk.ErrServerClosed. Cleanups registered before Serve run after
// this one, so they see the server stopped.
func Serve(t testing.TB, s *brisk.Server, ln net.Listener) {
	t.Helper()
	if !s.NoParkIdle && s.ParkIdleAfter == 0 {
		switch os.Getenv(ParkEnv) {
		case "1", "detach":
			s.ParkIdleAfter = -1
		case "off":
			s.NoParkIdle = true
		}
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; !errors.Is(err, brisk.ErrServerClosed) {
			t.Errorf("Serve returned %v, want brisk.ErrServerClosed", err)
		}
	})
}

// Quiet discards s's log unless s has a Logger, and returns s:
// Start(t, Quiet(s)) for a test that does not look at the log.
func Quiet(s *brisk.Server) *brisk.Server {
	if s.Logger == nil {
		s.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s
}
