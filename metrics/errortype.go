package metrics

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/wire"
)

// ErrorTypes are the values ErrorType returns, a bounded set fit for a
// metric label.
var ErrorTypes = [...]string{"reset", "closed", "timeout", "too_slow", "too_large", "bad_request", "other"}

// ErrorType classifies the error that ended a request (RequestInfo.Err)
// into one of ErrorTypes:
//
//   - "reset": the client reset the connection (ECONNRESET, EPIPE,
//     ECONNABORTED);
//   - "closed": the client closed it mid-request (EOF, unexpected EOF);
//   - "timeout": a read or write deadline passed (Server.ReadTimeout,
//     WriteTimeout);
//   - "too_slow": below a minimum data rate (brisk.ErrBodyTooSlow,
//     brisk.ErrResponseTooSlow);
//   - "too_large": a body above Server.MaxBodyBytes;
//   - "bad_request": a request that does not parse or frame (a
//     *wire.Error), a request-target or path that does not decode;
//   - "other": anything else, and nil.
//
// The first four are the client's doing (see ClientError).
func ErrorType(err error) string {
	switch {
	case err == nil:
		return "other"
	case errors.Is(err, brisk.ErrBodyTooSlow), errors.Is(err, brisk.ErrResponseTooSlow):
		return "too_slow"
	case errors.Is(err, brisk.ErrBodyTooLarge):
		return "too_large"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED):
		return "reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return "closed"
	case errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err):
		return "timeout"
	case wire.KindOf(err) != 0, errors.Is(err, brisk.ErrTargetForm), errors.Is(err, brisk.ErrTargetScheme),
		errors.Is(err, brisk.ErrTargetUserinfo), errors.Is(err, brisk.ErrInvalidHost), errors.Is(err, brisk.ErrPathEscape),
		errors.Is(err, brisk.ErrPathByte), errors.Is(err, brisk.ErrPathStart):
		return "bad_request"
	}
	return "other"
}

// ClientError reports whether err, the error that ended a request, is
// the client's doing rather than the server's: a reset, a close, a
// timeout or a rate below the minimum (ErrorType "reset", "closed",
// "timeout", "too_slow"). An access log records these below its usual
// level: a storm of them says little about each.
func ClientError(err error) bool {
	switch ErrorType(err) {
	case "reset", "closed", "timeout", "too_slow":
		return true
	}
	return false
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
