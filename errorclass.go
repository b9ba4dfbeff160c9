package brisk

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/brisk-http/brisk/wire"
)

// ErrorClass is the class of the error that ended a request
// (RequestInfo.Err), as ClassifyError gives it: a small closed set, fit
// for a metric label (String) or for choosing a log level (ClientCaused).
// The classes are the constants below, 0 to NumErrorClasses-1, so that a
// class can index an array.
type ErrorClass uint8

// The error classes. Their String is given with each.
const (
	// ErrorOther ("other"): none of the classes below, and nil.
	ErrorOther ErrorClass = iota
	// ErrorReset ("reset"): the client reset the connection (ECONNRESET,
	// EPIPE, ECONNABORTED).
	ErrorReset
	// ErrorClosed ("closed"): the client closed the connection
	// mid-request (io.EOF, io.ErrUnexpectedEOF, net.ErrClosed).
	ErrorClosed
	// ErrorTimeout ("timeout"): a read or write deadline passed
	// (Server.ReadTimeout, WriteTimeout; os.ErrDeadlineExceeded or a
	// net.Error whose Timeout reports true).
	ErrorTimeout
	// ErrorTooSlow ("too_slow"): the client sent the body or took the
	// response below the minimum data rate (ErrBodyTooSlow,
	// ErrResponseTooSlow).
	ErrorTooSlow
	// ErrorTooLarge ("too_large"): a body above Server.MaxBodyBytes
	// (ErrBodyTooLarge).
	ErrorTooLarge
	// ErrorBadRequest ("bad_request"): a request that does not parse or
	// frame (a *wire.Error), a request-target or path that does not
	// decode (ErrTargetForm, ErrTargetScheme, ErrTargetUserinfo,
	// ErrInvalidHost, ErrPathEscape, ErrPathByte, ErrPathStart).
	ErrorBadRequest

	// NumErrorClasses is the number of error classes.
	NumErrorClasses = iota
)

var errorClassNames = [NumErrorClasses]string{"other", "reset", "closed", "timeout", "too_slow", "too_large", "bad_request"}

// String returns the class's name, given with each constant ("reset",
// "bad_request", ...), or "ErrorClass(?)" for a value out of range.
func (c ErrorClass) String() string {
	if int(c) >= len(errorClassNames) {
		return "ErrorClass(?)"
	}
	return errorClassNames[c]
}

// ClientCaused reports whether the class is the client's doing rather
// than the server's or the request's: ErrorReset, ErrorClosed,
// ErrorTimeout and ErrorTooSlow, a request the client cut short. A storm
// of these says little about each, so an access log may record them
// below its usual level (middleware.AccessLog.ClientErrorLevel).
func (c ErrorClass) ClientCaused() bool {
	return c >= ErrorReset && c <= ErrorTooSlow
}

// ClassifyError returns the class of err, the error that ended a request
// (RequestInfo.Err), matched with errors.Is and errors.As in the order
// too slow, too large, reset, closed, timeout, bad request: a wrapped
// error takes the first class that matches.
func ClassifyError(err error) ErrorClass {
	switch {
	case err == nil:
		return ErrorOther
	case errors.Is(err, ErrBodyTooSlow), errors.Is(err, ErrResponseTooSlow):
		return ErrorTooSlow
	case errors.Is(err, ErrBodyTooLarge):
		return ErrorTooLarge
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED):
		return ErrorReset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return ErrorClosed
	case errors.Is(err, os.ErrDeadlineExceeded), wrapsTimeout(err):
		return ErrorTimeout
	case wire.KindOf(err) != 0, isTargetError(err):
		return ErrorBadRequest
	}
	return ErrorOther
}

// isTargetError reports the request-target and path errors, answered 400
// before the Handler.
func isTargetError(err error) bool {
	for _, target := range [...]error{ErrTargetForm, ErrTargetScheme, ErrTargetUserinfo, ErrInvalidHost,
		ErrPathEscape, ErrPathByte, ErrPathStart} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// wrapsTimeout reports whether err is or wraps a net.Error whose Timeout
// reports true.
func wrapsTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
