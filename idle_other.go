//go:build !linux || 386

package brisk

// peekReadable always reports input on systems without the MSG_PEEK probe,
// so idle connections keep their buffers there while they wait.
func peekReadable(fd uintptr, b *[1]byte) bool { return true }
