//go:build linux && !386

package brisk

import (
	"syscall"
	"unsafe"
)

// peekSocket looks, without blocking, at what the socket fd would give
// the next read: a recv(MSG_PEEK|MSG_DONTWAIT) of one byte. EAGAIN is
// peekEmpty; a byte, an EOF (0 bytes) or a connection error is peekInput;
// anything else (not a socket, interrupted) is peekUnknown. The raw
// syscall avoids syscall.Recvfrom's address allocation.
func peekSocket(fd uintptr, b *[1]byte) peekResult {
	_, _, errno := syscall.Syscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1,
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	switch errno {
	case syscall.EAGAIN:
		return peekEmpty
	case 0, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.ETIMEDOUT, syscall.ENOTCONN,
		syscall.EPIPE, syscall.EHOSTUNREACH, syscall.ENETUNREACH:
		return peekInput
	}
	return peekUnknown
}
