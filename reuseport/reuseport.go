package reuseport

import (
	"errors"
	"net"
	"runtime"
)

// Listen opens n TCP listeners on the same address with SO_REUSEPORT,
// so the kernel spreads new connections across them (on Linux, by a
// hash of the connection's addresses); n <= 0 means
// runtime.GOMAXPROCS(0). Other processes that set SO_REUSEPORT may bind
// the same port too: that is the prefork pattern, several processes on
// one port, any of which may stop while the others keep serving. With
// port 0, the first listener picks a port and the others share it. On a
// platform without SO_REUSEPORT (Windows) it fails. On an error no
// listener is left open. Serve each listener:
//
//	lns, err := reuseport.Listen("tcp", ":8080", 0)
//	for _, ln := range lns {
//		go srv.Serve(ln)
//	}
func Listen(network, addr string, n int) ([]net.Listener, error) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	var lns []net.Listener
	for i := range n {
		ln, err := open(network, addr)
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return nil, errors.Join(errListen, err)
		}
		if i == 0 {
			addr = ln.Addr().String() // port 0: the others join the chosen port
		}
		lns = append(lns, ln)
	}
	return lns, nil
}
