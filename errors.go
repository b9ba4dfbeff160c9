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

	"github.com/brisk-http/brisk/wire"
)

// ErrServerClosed is returned by Serve and ListenAndServe after Shutdown.
var ErrServerClosed = errors.New("brisk: server closed")

// ErrBodyTooLarge is returned by Request.Body and reads from
// Request.BodyReader when the body exceeds Server.MaxBodyBytes. It is
// wire.ErrBodyTooLarge, so errors.Is works with either name. The server
// then answers 413 (unless the response was already started) and closes
// the connection.
var ErrBodyTooLarge error = wire.ErrBodyTooLarge

// ErrBodyTooSlow is returned by Request.Body and reads from
// Request.BodyReader when the client sends the body slower than
// Server.MinRequestBodyRate. The server then answers 408 (unless the
// response was already started) and closes the connection.
var ErrBodyTooSlow = errors.New("brisk: request body slower than the minimum data rate")

// ErrResponseTooSlow is returned by BodyWriter.Write and Flush when the
// client takes the response slower than Server.MinResponseRate (it stopped
// reading, or reads too slowly). The connection is closed.
var ErrResponseTooSlow = errors.New("brisk: client reads the response slower than the minimum data rate")

// Errors of Ctx.SendInterim.
var (
	// ErrInterimStatus: the status code is not 100 or 102..199 (101
	// Switching Protocols belongs to a protocol upgrade).
	ErrInterimStatus = errors.New("brisk: interim status code not 100 or 102..199")

	// ErrInterimField: a field has an invalid name or value (RFC 9110 §5).
	ErrInterimField = errors.New("brisk: invalid field in an interim response")

	// ErrResponseStarted: the final response has already started.
	ErrResponseStarted = errors.New("brisk: final response already started")
)

// ErrProxy is matched (errors.Is) by every *ProxyError.
var ErrProxy = errors.New("brisk: proxy")

// ErrBodyLength is returned by BodyWriter.Write when more bytes are written
// than the Content-Length the handler set.
var ErrBodyLength = errors.New("brisk: response body longer than its Content-Length")

// ErrHijacked is returned by a second Ctx.Hijack, Upgrade or Tunnel, and
// by the Ctx's body reads and response writes after one of them: the
// connection belongs to the handler, and brisk neither reads nor writes it
// any more.
var ErrHijacked = errors.New("brisk: connection hijacked")

// Errors of Ctx.Upgrade and Ctx.Tunnel. Each leaves the connection to the
// server and the response unsent: the handler answers as usual (e.g. 426
// Upgrade Required, 400 or 405).
var (
	// ErrNoUpgrade: the request does not offer the protocol: it is not
	// HTTP/1.1 or later (an Upgrade field in HTTP/1.0 is ignored, RFC 9110
	// §7.8), has no "upgrade" connection option, or its Upgrade field
	// does not list the protocol.
	ErrNoUpgrade = errors.New("brisk: request does not offer an upgrade to the protocol")

	// ErrNotConnect: Tunnel was called for a request that is not CONNECT.
	ErrNotConnect = errors.New("brisk: request is not CONNECT")

	// ErrSwitchState: the response has started streaming, or the request
	// body has not been read to its end: the new protocol starts right
	// after the response head, so nothing of HTTP may be left between.
	ErrSwitchState = errors.New("brisk: response started or request body unread")

	// ErrSwitchResponse: the handler's status code or fields cannot be
	// sent: an invalid field or reason phrase, or a Tunnel status code
	// outside 2xx.
	ErrSwitchResponse = errors.New("brisk: invalid status code or field for the switch")
)

// errHeaderCapacity reports a head that does not fit the read buffer even
// at its largest size; it is answered like wire.ErrHeaderTooLarge.
var errHeaderCapacity = &wire.Error{Kind: wire.ErrHeaderTooLarge}

// errorStatus is what the server does about a rejected request.
type errorStatus struct {
	code      int  // status code of the error response
	closeConn bool // close the connection after it: framing is in doubt
}

// errorTable is the one table mapping every error the server answers to a
// status code and to "close the connection": the wire kinds (RFC 9112 §2.2,
// §3, §5, §6, §7; RFC 9110 §15.5.14, §15.6.2, §15.6.6; RFC 6585 §5), the
// request-target and path errors, and the form errors. Every parse error
// closes the connection: once a head or body is malformed the server cannot
// tell where the next message would begin. Kinds that only a client sees
// (status line) map to 400 for completeness.
var errorTable = [...]struct {
	err error
	errorStatus
}{
	{wire.ErrRequestLine, errorStatus{400, true}},
	{wire.ErrMethod, errorStatus{400, true}},
	{wire.ErrTarget, errorStatus{400, true}},
	{wire.ErrVersion, errorStatus{400, true}},
	{wire.ErrVersionUnsupported, errorStatus{505, true}},
	{wire.ErrRequestLineTooLong, errorStatus{414, true}},
	{wire.ErrStatusLine, errorStatus{400, true}},
	{wire.ErrStatusCode, errorStatus{400, true}},
	{wire.ErrLineEnding, errorStatus{400, true}},
	{wire.ErrFieldName, errorStatus{400, true}},
	{wire.ErrFieldValue, errorStatus{400, true}},
	{wire.ErrObsFold, errorStatus{400, true}},
	{wire.ErrHeaderTooLarge, errorStatus{431, true}},
	{wire.ErrTooManyFields, errorStatus{431, true}},
	{wire.ErrHost, errorStatus{400, true}},
	{wire.ErrContentLength, errorStatus{400, true}},
	{wire.ErrFraming, errorStatus{400, true}},
	{wire.ErrTransferCoding, errorStatus{501, true}},
	{wire.ErrChunkSize, errorStatus{400, true}},
	{wire.ErrChunkExt, errorStatus{400, true}},
	{wire.ErrChunkData, errorStatus{400, true}},
	{wire.ErrChunkOverhead, errorStatus{400, true}},
	{wire.ErrTrailerTooLarge, errorStatus{431, true}},
	{wire.ErrBodyTooLarge, errorStatus{413, true}},
	{ErrBodyTooSlow, errorStatus{408, true}},

	// Request-target (RFC 9112 §3.2, RFC 3986): answered before the
	// handler runs.
	{ErrTargetForm, errorStatus{400, true}},
	{ErrTargetScheme, errorStatus{400, true}},
	{ErrTargetUserinfo, errorStatus{400, true}},
	{ErrInvalidHost, errorStatus{400, true}},
	{ErrPathEscape, errorStatus{400, true}},
	{ErrPathByte, errorStatus{400, true}},
	{ErrPathStart, errorStatus{400, true}},

	// Forms, returned to the handler by Request.MultipartForm: the body
	// is left partly unread, so the connection closes.
	{ErrNotMultipart, errorStatus{415, false}},
	{ErrMultipartParts, errorStatus{413, true}},
	{ErrMultipartTooLarge, errorStatus{413, true}},
}

// statusForError returns the status code to answer err with and whether the
// connection must be closed afterwards, from errorTable (errors.Is, so
// wrapped errors and *wire.Error values match their kind). A timeout (an
// error with a Timeout method reporting true, such as a body read past
// Server.ReadTimeout) maps to 408 (RFC 9110 §15.5.9) and close. Other
// errors (including ErrNeedMore, which is never a reason to answer) map to
// 400 and close.
func statusForError(err error) errorStatus {
	for i := range errorTable {
		if errors.Is(err, errorTable[i].err) {
			return errorTable[i].errorStatus
		}
	}
	if isTimeout(err) {
		return errorStatus{408, true}
	}
	return errorStatus{400, true}
}

// ErrorStatus returns the status code the server answers err with: 400 for
// a malformed request, target or path, 408 for a timeout (as a body read
// past Server.ReadTimeout returns), 413 for ErrBodyTooLarge,
// ErrMultipartParts and ErrMultipartTooLarge, 415 for ErrNotMultipart,
// 414, 431, 501 or 505 for the corresponding wire kinds (see wire.Kind),
// and 400 for any other error. Handlers can use it to answer the errors of
// Request.PostArgs and Request.MultipartForm consistently.
func ErrorStatus(err error) int { return statusForError(err).code }

// Sentinel errors of the request-target, cookie and form code. Compare them
// with errors.Is. The status noted is what a server answers when the error
// comes from a request; none of these errors echo client bytes.
var (
	// ErrTargetForm: the request-target is in no valid form, or in a form
	// the method does not allow: authority-form is for CONNECT only and
	// CONNECT takes nothing else, asterisk-form is for OPTIONS only
	// (RFC 9112 §3.2). → 400.
	ErrTargetForm = errors.New("brisk: invalid request-target form")

	// ErrTargetScheme: an absolute-form request-target whose scheme is not
	// "http" or "https", or that lacks "//" authority (RFC 9110 §4.2). → 400.
	ErrTargetScheme = errors.New("brisk: request-target scheme is not http or https")

	// ErrTargetUserinfo: an absolute-form authority with userinfo, which
	// RFC 9110 §4.2.4 tells recipients to treat as an error. → 400.
	ErrTargetUserinfo = errors.New("brisk: userinfo in request-target")

	// ErrInvalidHost: a host or authority that is not uri-host [ ":" port ]
	// (RFC 3986 §3.2.2, §3.2.3; RFC 9110 §7.2). → 400.
	ErrInvalidHost = errors.New("brisk: invalid host")

	// ErrPathEscape: a "%" in the path not followed by two hexadecimal
	// digits (RFC 3986 §2.1). → 400.
	ErrPathEscape = errors.New("brisk: invalid percent-encoding in path")

	// ErrPathByte: the path holds a raw (unencoded) control character or
	// backslash; percent-encoded ones are valid and stay encoded (see
	// DecodePath). → 400.
	ErrPathByte = errors.New("brisk: forbidden byte in path")

	// ErrPathStart: a non-empty path that does not start with "/"
	// (RFC 3986 §3.3 path-absolute / path-abempty). → 400.
	ErrPathStart = errors.New("brisk: path does not start with /")

	// ErrCookieName: a Set-Cookie name that is not a token (RFC 6265
	// §4.1.1).
	ErrCookieName = errors.New("brisk: invalid cookie name")

	// ErrCookieValue: a Set-Cookie value that is not *cookie-octet,
	// optionally in DQUOTEs (RFC 6265 §4.1.1): no CTL, SP, DQUOTE
	// (except as the enclosing pair), ",", ";", "\" or non-ASCII byte.
	ErrCookieValue = errors.New("brisk: invalid cookie value")

	// ErrCookiePath: a Path attribute value holding a CTL, ";" or a
	// non-ASCII byte (RFC 6265 §4.1.1 path-value).
	ErrCookiePath = errors.New("brisk: invalid cookie Path")

	// ErrCookieDomain: a Domain attribute value that is not a host name
	// (RFC 6265 §4.1.1 domain-value, RFC 1034 §3.5).
	ErrCookieDomain = errors.New("brisk: invalid cookie Domain")

	// ErrCookieExpires: an Expires time whose year is outside 1601..9999,
	// which IMF-fixdate cannot carry (RFC 6265 §5.1.1, RFC 9110 §5.6.7).
	ErrCookieExpires = errors.New("brisk: invalid cookie Expires")

	// ErrCookieSecure: Partitioned or SameSite=None without Secure;
	// user agents drop such cookies (draft-cutler-httpbis-partitioned-cookies,
	// RFC 6265bis §4.1.2.7).
	ErrCookieSecure = errors.New("brisk: cookie attribute requires Secure")

	// ErrCookiePrefix: a "__Secure-" cookie without Secure, or a "__Host-"
	// cookie without Secure, with a Domain, or with a Path other than "/"
	// (RFC 6265bis §4.1.3).
	ErrCookiePrefix = errors.New("brisk: cookie name prefix requirements not met")

	// ErrSetCookieSyntax: a Set-Cookie field value without a name-value
	// pair "name=value" before the first ";" (RFC 6265 §5.2).
	ErrSetCookieSyntax = errors.New("brisk: malformed Set-Cookie")

	// ErrNotMultipart: a Content-Type that is not multipart/form-data with
	// a valid boundary parameter (RFC 7578 §4.1, RFC 2046 §5.1.1). → 415
	// (see ErrorStatus).
	ErrNotMultipart = errors.New("brisk: not multipart/form-data with a boundary")

	// ErrMultipartParts: a multipart body with more parts than
	// MultipartLimits.MaxParts. → 413.
	ErrMultipartParts = errors.New("brisk: too many multipart parts")

	// ErrMultipartTooLarge: a multipart body larger than
	// MultipartLimits.MaxMemoryBytes + MaxDiskBytes. → 413.
	ErrMultipartTooLarge = errors.New("brisk: multipart body too large")
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
	// is returned; other requests are not. On HTTP/2 (ClientConfig.HTTP2)
	// it also means that the server reset the request's stream
	// (RST_STREAM, RFC 9113 §6.4), or that the stream failed on a
	// malformed response or a connection error; the HTTP/2 layer's error
	// is wrapped.
	ErrConnectionClosed = errors.New("brisk: connection closed by the server")

	// ErrNotProcessed: the server said it did not process the request, so
	// that it may be sent again whatever its method (RFC 9113 §8.7): on
	// HTTP/2, it refused the stream (REFUSED_STREAM) or sent a GOAWAY
	// frame naming an earlier last stream. The client sends such a
	// request again on a new connection, up to MaxIdempotentRetries
	// times, when its body can be sent again; this error is returned
	// when it cannot.
	ErrNotProcessed = errors.New("brisk: request not processed by the server")

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
