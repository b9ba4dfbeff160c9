package brisk

import (
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// forbiddenTrailers names the fields brisk neither accepts nor sends in a
// trailer section: those RFC 9110 §6.5.1 says cannot be processed after
// the content (framing, routing, authentication, request modifiers,
// response control, content format). It is the list of net/http's
// httpguts.ValidTrailerHeader, so both servers agree on what a trailer
// may carry.
var forbiddenTrailers = [...]string{
	"Authorization", "Cache-Control", "Connection", "Content-Encoding",
	"Content-Length", "Content-Range", "Content-Type", "Expect", "Host",
	"Keep-Alive", "Max-Forwards", "Pragma", "Proxy-Authenticate",
	"Proxy-Authorization", "Proxy-Connection", "Range", "Realm", "TE",
	"Trailer", "Transfer-Encoding", "WWW-Authenticate",
}

// forbiddenTrailer reports whether name (any case) is in forbiddenTrailers.
func forbiddenTrailer(name []byte) bool {
	for _, f := range forbiddenTrailers {
		if ascii.EqualFold(name, f) {
			return true
		}
	}
	return false
}

// dropForbiddenTrailers removes the forbidden fields from fields in place
// (keeping the order of the others) and returns the shortened slice.
func dropForbiddenTrailers(fields []wire.Field) []wire.Field {
	j := 0
	for i := range fields {
		if !forbiddenTrailer(fields[i].Name) {
			fields[j] = fields[i]
			j++
		}
	}
	clear(fields[j:])
	return fields[:j]
}
