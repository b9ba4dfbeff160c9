// Package reuseport opens several TCP listeners on one address with
// SO_REUSEPORT, so that the kernel spreads new connections across them
// and several processes may serve one port (the prefork pattern):
//
//	lns, err := reuseport.Listen("tcp", ":8080", 0) // one per core
//	for _, ln := range lns {
//		go srv.Serve(ln)
//	}
//
// Each listener is a plain net.Listener; the package uses no brisk API.
// On a platform without SO_REUSEPORT (Windows) Listen fails.
package reuseport
