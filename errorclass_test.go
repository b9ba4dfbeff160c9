package brisk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/brisk-http/brisk/wire"
)

// TestClassifyError: each class from its errors, wrapped or not, and the
// client-caused ones.
func TestClassifyError(t *testing.T) {
	timeout := &net.OpError{Op: "read", Err: os.ErrDeadlineExceeded}
	for _, tc := range []struct {
		name string
		err  error
		want ErrorClass
	}{
		{"nil", nil, ErrorOther},
		{"other", errors.New("x"), ErrorOther},
		{"canceled", context.Canceled, ErrorOther},
		{"reset", &net.OpError{Op: "write", Err: os.NewSyscallError("write", syscall.ECONNRESET)}, ErrorReset},
		{"broken_pipe", fmt.Errorf("w: %w", syscall.EPIPE), ErrorReset},
		{"aborted", syscall.ECONNABORTED, ErrorReset},
		{"eof", io.EOF, ErrorClosed},
		{"unexpected_eof", fmt.Errorf("body: %w", io.ErrUnexpectedEOF), ErrorClosed},
		{"net_closed", net.ErrClosed, ErrorClosed},
		{"deadline", timeout, ErrorTimeout},
		{"net_timeout", fmt.Errorf("x: %w", timeoutError{errors.New("timed out")}), ErrorTimeout},
		{"body_too_slow", ErrBodyTooSlow, ErrorTooSlow},
		{"response_too_slow", fmt.Errorf("w: %w", ErrResponseTooSlow), ErrorTooSlow},
		{"too_large", ErrBodyTooLarge, ErrorTooLarge},
		{"wire_too_large", &wire.Error{Kind: wire.ErrBodyTooLarge}, ErrorTooLarge},
		{"chunk", &wire.Error{Kind: wire.ErrChunkSize}, ErrorBadRequest},
		{"target", ErrTargetForm, ErrorBadRequest},
		{"path", fmt.Errorf("p: %w", ErrPathEscape), ErrorBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ClassifyError(tc.err)
			if got != tc.want {
				t.Fatalf("ClassifyError(%v) = %v, want %v", tc.err, got, tc.want)
			}
			client := tc.want == ErrorReset || tc.want == ErrorClosed || tc.want == ErrorTimeout || tc.want == ErrorTooSlow
			if got.ClientCaused() != client {
				t.Errorf("%v.ClientCaused() = %v, want %v", got, got.ClientCaused(), client)
			}
		})
	}
}

// TestErrorClassString: the names are distinct label values; out of
// range is marked.
func TestErrorClassString(t *testing.T) {
	seen := map[string]bool{}
	for c := range ErrorClass(NumErrorClasses) {
		s := c.String()
		if s == "" || seen[s] {
			t.Errorf("class %d: name %q empty or repeated", c, s)
		}
		seen[s] = true
	}
	if s := ErrorClass(NumErrorClasses).String(); s != "ErrorClass(?)" {
		t.Errorf("out of range: %q", s)
	}
}
