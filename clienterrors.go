package brisk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"syscall"
)

// Client errors. Every error returned by Client and HostClient satisfies
// errors.Is with one of these sentinels, with ErrBodyTooLarge, with a
// wire kind (a malformed response: wire.ErrStatusLine, wire.ErrChunkSize,
// ...), or, for a cancelled DoContext, with context.Canceled. The
// underlying cause (an I/O error, io.EOF, io.ErrUnexpectedEOF,
// os.ErrDeadlineExceeded) stays reachable with errors.Is and errors.As.
var (
	// ErrTimeout: the request's deadline passed (dialling, waiting for a
	// free connection, writing the request or reading the response).
	// With DoContext and a context deadline, the error also satisfies
	// errors.Is(err, context.DeadlineExceeded).
	ErrTimeout = errors.New("brisk: client timeout")

	// ErrConnectionClosed: the server closed the connection (EOF, reset)
	// before the response was complete. Closed before any byte, the cause
	// is io.EOF; in the middle of a head or body, io.ErrUnexpectedEOF.
	// Idempotent requests on a reused connection are retried before this
	// is returned; other requests are not.
	ErrConnectionClosed = errors.New("brisk: connection closed by the server")

	// ErrTooManyRedirects: more redirects than MaxRedirects. The response
	// holds the last redirect received.
	ErrTooManyRedirects = errors.New("brisk: too many redirects")

	// ErrTooManyInterimResponses: more than 10 1xx interim responses
	// before the final one.
	ErrTooManyInterimResponses = errors.New("brisk: too many interim (1xx) responses")

	// ErrInvalidURI: the request has no usable target: the URI given to
	// SetURI is not an absolute "http" or "https" URI with a host and no
	// userinfo, or an origin-form target has no Host. Following a
	// redirect, the Location is empty, has a scheme other than http or
	// https, or does not resolve to such a URI (the response holds the
	// redirect).
	ErrInvalidURI = errors.New("brisk: invalid request URI")

	// ErrRedirectOtherHost: HostClient received a redirect to another
	// host, which only Client follows. The response holds the redirect.
	ErrRedirectOtherHost = errors.New("brisk: redirect to another host")

	// ErrInvalidRequest: a method that is not a token, a target with
	// control bytes, a Host with whitespace or control bytes, or a header
	// field with an invalid name or value (RFC 9110 §5): the request is
	// not sent, so a caller cannot split it.
	ErrInvalidRequest = errors.New("brisk: invalid request")

	// ErrContentEncoding: a response body the client decodes (see
	// ClientConfig.Decoders) is not valid in its Content-Encoding. The
	// decoder's error is wrapped; resp.Body() is empty.
	ErrContentEncoding = errors.New("brisk: response body does not decode")

	// ErrRequestBody: reading a body set with SetBodyStream failed, or
	// it ended before its length, or GetBody failed. The reader's error
	// (or io.ErrUnexpectedEOF) is wrapped; the connection is closed.
	ErrRequestBody = errors.New("brisk: reading the request body")

	// ErrBodyNotRewindable: the Request's streamed body was read by an
	// earlier exchange and it has no GetBody (see SetBodyStream).
	ErrBodyNotRewindable = errors.New("brisk: streamed request body already sent and no GetBody")
)

// maxInterimResponses is how many 1xx interim responses (RFC 9110 §15.2)
// the client skips before a final response; one more is
// ErrTooManyInterimResponses. Each is bounded by MaxResponseHeaderBytes.
const maxInterimResponses = 10

// bodyLimitError is the ErrBodyTooLarge of a response body over limit,
// MaxResponseBodyBytes: claimed is its Content-Length, or -1 when it grew
// past the limit. The message names the limit and how to raise it.
func bodyLimitError(limit, claimed int64) error {
	what := "response body"
	if claimed >= 0 {
		what = "response Content-Length " + strconv.FormatInt(claimed, 10)
	}
	return fmt.Errorf("%w: %s over MaxResponseBodyBytes (%d bytes); "+
		"raise ClientConfig.MaxResponseBodyBytes (negative: no limit) or read it with DoStream",
		ErrBodyTooLarge, what, limit)
}

// errNoFreeConn is the cause of the ErrTimeout returned when no connection
// of a full pool came free before the deadline.
var errNoFreeConn = errors.New("no free connection before the deadline")

// wrapIO turns an I/O error of an exchange into a client error. mid
// reports that part of the response (or of a body) had arrived.
func wrapIO(err error, mid bool) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return wrapTimeout(err)
	case err == io.EOF && mid:
		return fmt.Errorf("%w: %w", ErrConnectionClosed, io.ErrUnexpectedEOF)
	case isClosedByPeer(err):
		return fmt.Errorf("%w: %w", ErrConnectionClosed, err)
	}
	return err
}

// isClosedByPeer reports the errors a connection closed by the server
// produces: EOF on read, reset, broken pipe.
func isClosedByPeer(err error) bool {
	return err == io.EOF || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, io.ErrClosedPipe)
}

// wrapTimeout wraps cause as an ErrTimeout.
func wrapTimeout(cause error) error { return fmt.Errorf("%w: %w", ErrTimeout, cause) }

// ctxError is the error for an exchange ended by ctx.
func ctxError(ctx context.Context) error {
	err := context.Cause(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return wrapTimeout(err)
	}
	return fmt.Errorf("brisk: request canceled: %w", err)
}

// dialError wraps a dial failure; a timeout becomes ErrTimeout.
func dialError(err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: dial: %w", ErrTimeout, err)
	}
	return fmt.Errorf("brisk: dial: %w", err)
}
