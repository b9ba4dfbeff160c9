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

// errHeaderCapacity reports a head that does not fit the read buffer even
// at its largest size; it is answered like wire.ErrHeaderTooLarge.
var errHeaderCapacity = &wire.Error{Kind: wire.ErrHeaderTooLarge}

// errorStatus is what the server does about a rejected request.
type errorStatus struct {
	code      int  // status code of the error response
	closeConn bool // close the connection after it: framing is in doubt
}

// kindStatus is the one table mapping every wire error kind to a status code
// and to "close the connection" (RFC 9112 §2.2, §3, §5, §6, §7; RFC 9110
// §15.5.14, §15.6.2, §15.6.6; RFC 6585 §5). Every parse error closes the
// connection: once a head or body is malformed the server cannot tell where
// the next message would begin. Kinds that only a client sees (status line)
// map to 400 for completeness.
var kindStatus = [...]errorStatus{
	wire.ErrRequestLine:        {400, true},
	wire.ErrMethod:             {400, true},
	wire.ErrTarget:             {400, true},
	wire.ErrVersion:            {400, true},
	wire.ErrVersionUnsupported: {505, true},
	wire.ErrRequestLineTooLong: {414, true},
	wire.ErrStatusLine:         {400, true},
	wire.ErrStatusCode:         {400, true},
	wire.ErrLineEnding:         {400, true},
	wire.ErrFieldName:          {400, true},
	wire.ErrFieldValue:         {400, true},
	wire.ErrObsFold:            {400, true},
	wire.ErrHeaderTooLarge:     {431, true},
	wire.ErrTooManyFields:      {431, true},
	wire.ErrHost:               {400, true},
	wire.ErrContentLength:      {400, true},
	wire.ErrFraming:            {400, true},
	wire.ErrTransferCoding:     {501, true},
	wire.ErrChunkSize:          {400, true},
	wire.ErrChunkExt:           {400, true},
	wire.ErrChunkData:          {400, true},
	wire.ErrChunkOverhead:      {400, true},
	wire.ErrTrailerTooLarge:    {431, true},
	wire.ErrBodyTooLarge:       {413, true},
}

// statusForError returns the status code to answer err with and whether the
// connection must be closed afterwards. Errors that are not wire kinds
// (including ErrNeedMore, which is never a reason to answer) map to 400 and
// close.
func statusForError(err error) errorStatus {
	k := wire.KindOf(err)
	if int(k) < len(kindStatus) && kindStatus[k].code != 0 {
		return kindStatus[k]
	}
	return errorStatus{400, true}
}
