package brisk

// peekResult is what a non-blocking peek at an idle connection's socket
// found (peekSocket).
type peekResult uint8

const (
	peekUnknown peekResult = iota // cannot tell: no probe here, not a socket, interrupted
	peekEmpty                     // nothing to read yet
	peekInput                     // bytes, an EOF or a connection error for the next read
)
