//go:build linux && !386

package reverseproxy

import (
	"net"
	"os"
	"reflect"
	"syscall"
	"time"
	"unsafe"
)

// Linux's TCP_INQ socket option (Linux 4.18): each recvmsg then returns,
// in a control message of type TCP_CM_INQ, how many bytes are left to
// read, and 1 when none are but a FIN is (so that the caller reads once
// more to see the EOF). include/uapi/linux/tcp.h.
const (
	tcpINQ   = 36
	tcpCmINQ = tcpINQ
)

// rawCopy copies one direction of a tunnel from a TCP socket inside one
// syscall.RawConn.Read call, so that the runtime resets the socket's
// read readiness once, not before each read: a message costs one
// recvmsg and one write, where Read then Write then Read costs a third
// system call that finds nothing (EAGAIN) before the goroutine parks.
// Each recvmsg says how many bytes are left (TCP_INQ): more, or a FIN
// not yet seen, are read at once; none, and the callback asks the poller
// to wait. Bytes or a FIN arriving after that count raise a new edge,
// which the poller records since nothing resets it inside the call.
type rawCopy struct {
	dst, src net.Conn // src: the connection its deadlines are set on
	idle     time.Duration
	rd, wd   *idleDeadline
	buf      []byte
	eof      bool
	err      error // a read or write error that ends the copy

	iov  syscall.Iovec
	msg  syscall.Msghdr
	cmsg [32]byte // room for one TCP_CM_INQ control message (int)
}

// step is the RawConn.Read callback: it reads and writes until the source
// is drained (false: wait), or the copy ends (true).
func (p *rawCopy) step(fd uintptr) bool {
	for {
		n, inq, err := p.recv(fd)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return p.wait()
		case err != nil:
			p.err = os.NewSyscallError("recvmsg", err)
			return true
		case n == 0:
			p.eof = true
			return true
		}
		if err := p.wd.write(p.dst, p.buf[:n], p.idle); err != nil {
			p.err = err
			return true
		}
		if inq == 0 {
			return p.wait()
		}
	}
}

// recv reads into p.buf with recvmsg, returning the byte count and the
// bytes left to read (TCP_CM_INQ; -1 when the message is missing: read
// again to know).
func (p *rawCopy) recv(fd uintptr) (n, inq int, err error) {
	p.iov.Base = &p.buf[0]
	p.iov.SetLen(len(p.buf))
	p.msg.Iov = &p.iov
	p.msg.Iovlen = 1
	p.msg.Control = &p.cmsg[0]
	p.msg.SetControllen(len(p.cmsg))
	r, _, errno := syscall.Syscall(syscall.SYS_RECVMSG, fd, uintptr(unsafe.Pointer(&p.msg)), 0)
	if errno != 0 {
		return 0, 0, errno
	}
	inq = -1
	if p.msg.Controllen >= syscall.SizeofCmsghdr+4 {
		h := (*syscall.Cmsghdr)(unsafe.Pointer(&p.cmsg[0]))
		if h.Level == syscall.SOL_TCP && h.Type == tcpCmINQ {
			inq = int(*(*int32)(unsafe.Pointer(&p.cmsg[syscall.SizeofCmsghdr])))
		}
	}
	return int(r), inq, nil
}

// wait moves the read deadline before the poller waits, and asks it to.
func (p *rawCopy) wait() bool {
	if err := p.rd.extend(p.src.SetReadDeadline, p.idle); err != nil {
		p.err = err
		return true
	}
	return false
}

// rawPipeCopy copies src to dst as pipeCopy does, through rawCopy when
// src is a TCP socket whose bytes are read from it unchanged (see
// rawSocket) and that takes TCP_INQ; it reports false, having done
// nothing, when not.
func rawPipeCopy(dst, src net.Conn, buf []byte, rd, wd *idleDeadline, idle time.Duration) (bool, error) {
	tc := rawSocket(src)
	if tc == nil {
		return false, nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return false, nil
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_TCP, tcpINQ, 1)
	}); err != nil || serr != nil {
		return false, nil
	}
	p := &rawCopy{dst: dst, src: src, idle: idle, rd: rd, wd: wd, buf: buf}
	if err := rd.extend(src.SetReadDeadline, idle); err != nil {
		return true, err
	}
	err = rc.Read(p.step)
	switch {
	case p.err != nil:
		return true, p.err
	case err != nil:
		return true, &net.OpError{Op: "read", Net: "tcp", Source: src.LocalAddr(), Addr: src.RemoteAddr(), Err: err}
	}
	return true, nil
}

// rawSocket returns the TCP connection under c when reading from it
// directly gives c's bytes: c itself, an upstream connection without
// TLS, or a connection hijacked from a brisk.Server with CloseHijacked
// (a wrapper whose NetConn is the connection). Nil otherwise: TLS, or a
// wrapper that may buffer or transform bytes.
func rawSocket(c net.Conn) *net.TCPConn {
	switch c := c.(type) {
	case *net.TCPConn:
		return c
	case *upstreamConn:
		tc, _ := c.Conn.(*net.TCPConn)
		return tc
	}
	t := reflect.TypeOf(c)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().PkgPath() != "github.com/brisk-http/brisk" ||
		t.Elem().Name() != "trackedConn" {
		return nil
	}
	if w, ok := c.(interface{ NetConn() net.Conn }); ok {
		tc, _ := w.NetConn().(*net.TCPConn)
		return tc
	}
	return nil
}
