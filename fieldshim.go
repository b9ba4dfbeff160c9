package brisk

import (
	"github.com/brisk-http/brisk/internal/ascii"
	"github.com/brisk-http/brisk/wire"
)

// Shim for clientwrite.go (requestSpecial), which the client's move to
// wire.ScanOutgoing removes; delete this file with it (and TestHasToken).

// Field names the client manages.
const (
	fOther = iota
	fConnection
	fContentLength
	fTransferEncoding
)

func special(name []byte) int {
	switch wire.ClassifyField(name) {
	case wire.FieldConnection:
		return fConnection
	case wire.FieldContentLength:
		return fContentLength
	case wire.FieldTransferEncoding:
		return fTransferEncoding
	}
	return fOther
}

// hasToken reports whether the comma-separated list v contains tok
// (case-insensitive, RFC 9110 §5.6.1).
func hasToken(v []byte, tok string) bool {
	for len(v) > 0 {
		i := 0
		for i < len(v) && v[i] != ',' {
			i++
		}
		if ascii.EqualFold(trimOWS(v[:i]), tok) {
			return true
		}
		if i == len(v) {
			break
		}
		v = v[i+1:]
	}
	return false
}
