package load

import (
	"errors"
	"net"
	"os"
)

// Configuration errors returned by Run before any connection is opened.
var (
	ErrURL         = errors.New("load: URL must be http://host[:port][/path]")
	ErrHeaderLine  = errors.New(`load: header must be "Name: value" with a token name and no control byte in the value`)
	ErrConnections = errors.New("load: connections must be at least 1")
	ErrPipeline    = errors.New("load: pipeline depth must be at least 1")
	ErrMethod      = errors.New("load: method must be a token")
	ErrRate        = errors.New("load: rate must not be negative")
	ErrProxy       = errors.New("load: proxy must be http://[user:password@]host[:port]")
)

// errServerClosed is the reason of a KindRead failure when the server
// closed the connection before the response was complete.
var errServerClosed = errors.New("the server closed the connection before the response was complete")

// ErrorKind is why a request failed. Each failed request is counted once,
// under the kind of the failure that ended it.
type ErrorKind uint8

// The error kinds.
const (
	KindConnect ErrorKind = iota // the TCP connection could not be opened
	KindRead                     // reading the response failed or the server closed the connection first
	KindWrite                    // writing the request failed
	KindTimeout                  // no complete response within Config.Timeout
	KindStatus                   // a response arrived with a status code outside 200..299
	KindParse                    // the response was not valid HTTP/1.1 (see package wire)
	kindCount
)

var kindNames = [kindCount]string{"connect", "read", "write", "timeout", "status", "parse"}

// String returns the kind's lower-case name, as used in reports.
func (k ErrorKind) String() string {
	if k >= kindCount {
		return "unknown"
	}
	return kindNames[k]
}

// ConnectError is returned by Run when the first connection to the URL's
// host cannot be opened (nothing listens, the name does not resolve, the
// connect times out): then nothing is run. Once the run has started,
// failed connects are counted under KindConnect instead.
type ConnectError struct {
	Addr string // host:port dialled
	Err  error  // the dial error, as returned by net.Dialer
}

// Error names the address and the cause alone, e.g. "load: cannot connect
// to 127.0.0.1:8080: connection refused".
func (e *ConnectError) Error() string {
	return "load: cannot connect to " + e.Addr + ": " + cause(e.Err).Error()
}

// Unwrap returns the dial error.
func (e *ConnectError) Unwrap() error { return e.Err }

// cause strips the *net.OpError and *os.SyscallError wrappers that repeat
// the address and the system call, keeping the reason.
func cause(err error) error {
	var op *net.OpError
	if errors.As(err, &op) {
		err = op.Err
	}
	var sys *os.SyscallError
	if errors.As(err, &sys) {
		err = sys.Err
	}
	return err
}
