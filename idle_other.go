//go:build !linux || 386

package brisk

// peekSupported reports that peekReadable cannot probe the socket here:
// its true means "cannot tell" (the client then assumes an idle
// connection is usable).
const peekSupported = false

// peekReadable always reports input on systems without the MSG_PEEK probe,
// so idle connections keep their buffers there while they wait.
func peekReadable(fd uintptr, b *[1]byte) bool { return true }
