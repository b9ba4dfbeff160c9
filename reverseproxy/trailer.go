package reverseproxy

import (
	"github.com/brisk-http/brisk"
)

// copyTrailer adds the fields of the trailer section src to dst, but
// those a Proxy does not pass on: the hop-by-hop fields and the
// forwarding fields (a client's own are passed on only in a header
// section, and only from a trusted proxy): a recipient that merges
// trailer fields into the header section would otherwise take them as
// this hop's. The fields no trailer section may carry (Content-Length,
// Host, Trailer, ...: RFC 9110 §6.5.1) brisk's Server drops itself, from
// the request's trailer section as it reads it and from the response's
// as it writes it.
func copyTrailer(dst, src *brisk.Header) {
	for name, v := range src.All() {
		if !hopByHop(name) && !forwardingField(name) {
			dst.AddBytes(name, v)
		}
	}
}
