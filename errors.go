package brisk

import (
	"errors"

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
