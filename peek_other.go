//go:build !linux || 386

package brisk

// canPeek: peekSocket cannot probe sockets here.
const canPeek = false

// peekSocket cannot look at a socket here: peekUnknown. The server then
// keeps an idle connection's buffers while it waits, and the client takes
// an idle connection as usable.
func peekSocket(fd uintptr, b *[1]byte) peekResult { return peekUnknown }

// writeSocket is not used without canPeek: it writes nothing.
func writeSocket(fd uintptr, p []byte) int { return 0 }
