//go:build linux && !386

package brisk

import (
	"syscall"
	"unsafe"
)

// peekSupported reports that peekReadable probes the socket.
const peekSupported = true

// peekReadable reports, without blocking, whether the socket fd has input
// (or an EOF or error for the next read to report): a non-blocking
// recv(MSG_PEEK) of one byte that does not fail with EAGAIN. The raw
// syscall avoids syscall.Recvfrom's address allocation.
func peekReadable(fd uintptr, b *[1]byte) bool {
	_, _, errno := syscall.Syscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1,
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	return errno != syscall.EAGAIN
}
