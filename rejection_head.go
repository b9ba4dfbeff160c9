package brisk

import (
	"errors"

	"github.com/brisk-http/brisk/wire"
)

// HeadParsed reports whether the rejected request's head parsed: then the
// request also reaches Server.OnRequestDone (a Content-Length above
// MaxBodyBytes, 413; a request-target or path that does not decode, 400),
// while one whose head does not parse (r.Err a *wire.Error other than
// wire.ErrBodyTooLarge) reaches OnReject alone. A hook counting every
// request counts those of OnReject for which HeadParsed is false.
func (r Rejection) HeadParsed() bool {
	return errors.Is(r.Err, ErrBodyTooLarge) || wire.KindOf(r.Err) == 0
}
