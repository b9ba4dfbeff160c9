//go:build linux && !386

package brisk

import (
	"syscall"
	"unsafe"
)

// canPeek: peekSocket probes sockets here, so a wait may skip its peek
// and recover from a lost readiness edge with a later one (sendAndWait).
const canPeek = true

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

// writeSocket writes p to the non-blocking socket fd in one write(2)
// (retried on EINTR) and returns how many bytes it took: all of p, fewer
// when the socket buffer is full, 0 on an error (EAGAIN included), which
// the blocking write that finishes the job then reports.
func writeSocket(fd uintptr, p []byte) int {
	n, _ := ignoringEINTR(syscall.Write, int(fd), p)
	return max(n, 0)
}
