package reverseproxy

import (
	"errors"
	"fmt"
)

// Phase names a step of a proxied exchange, for errors and timings.
type Phase uint8

// The phases of an exchange, in order.
const (
	PhasePick     Phase = iota // choosing an upstream
	PhaseDial                  // opening the TCP connection
	PhaseTLS                   // the TLS handshake with the upstream
	PhaseRequest               // sending the request and awaiting the response head
	PhaseResponse              // relaying the response body
	PhaseUpgrade               // relaying an upgraded connection
)

var phaseNames = [...]string{"pick", "dial", "tls", "request", "response", "upgrade"}

// String returns the phase's name ("dial", "tls", ...).
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

var (
	// ErrNoUpstream: the Proxy has no upstream, or every upstream is in
	// its penalty period (see Proxy.HealthPenalty). Answered 503.
	ErrNoUpstream = errors.New("reverseproxy: no healthy upstream")

	// ErrConnectRefused: a CONNECT request and Proxy.Connect is nil,
	// or one received over HTTP/2 or HTTP/3. Answered 405.
	ErrConnectRefused = errors.New("reverseproxy: CONNECT not enabled")

	// ErrUpstreamURL: an entry of Proxy.Upstreams is not an "http" or
	// "https" URL with a host and nothing else but a port. Every request
	// is then answered 500.
	ErrUpstreamURL = errors.New("reverseproxy: invalid upstream URL")
)

// Error is why a request could not be proxied, or why its response was
// cut short: the phase that failed, the upstream it failed on ("" before
// one was chosen), the status code sent to the client (0 when the
// response had already started and was cut short instead) and the cause:
// a brisk client error (brisk.ErrTimeout, brisk.ErrConnectionClosed, a
// wire error kind, ...), ErrNoUpstream, ErrConnectRefused, or the error
// reading the client's request body (brisk.ErrRequestBody).
type Error struct {
	Phase    Phase
	Upstream string
	Status   int
	Err      error
}

func (e *Error) Error() string {
	if e.Upstream == "" {
		return fmt.Sprintf("reverseproxy: %s: %v", e.Phase, e.Err)
	}
	return fmt.Sprintf("reverseproxy: %s %s: %v", e.Phase, e.Upstream, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// dialError marks an error of the Proxy's dial function, so that the
// phase is known once the client has wrapped it.
type dialError struct {
	phase Phase
	err   error
}

func (e *dialError) Error() string { return e.phase.String() + ": " + e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }
