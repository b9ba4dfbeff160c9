package reverseproxy

import (
	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
)

// copyTrailer adds the fields of the trailer section src to dst, but
// those a trailer section must not carry or a Proxy does not pass on:
// the hop-by-hop fields, the forwarding fields (a client's own are
// passed on only in a header section, and only from a trusted proxy),
// and those for framing and routing, Content-Length, Host and Trailer
// (RFC 9110 §6.5.1, §6.5.2): a recipient that merges trailer fields into
// the header section would otherwise take them as this hop's.
func copyTrailer(dst, src *brisk.Header) {
	for name, v := range src.All() {
		if !hopByHop(name) && !forwardingField(name) && !framingField(name) {
			dst.AddBytes(name, v)
		}
	}
}

// framingField reports Content-Length, Host and Trailer.
func framingField(name []byte) bool {
	switch len(name) {
	case 4:
		return ascii.EqualFoldLower(name, "host")
	case 7:
		return ascii.EqualFoldLower(name, "trailer")
	case 14:
		return ascii.EqualFoldLower(name, "content-length")
	}
	return false
}
