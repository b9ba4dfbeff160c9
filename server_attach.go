package brisk

// protoHTTP30 is the protocol version of an HTTP/3 request, as
// net/http's Request.Proto reports it for quic-go's http3 server.
const protoHTTP30 = "HTTP/3.0"

// Attach ties t, a server of s's Handler on another transport (package
// github.com/brisk-http/brisk/h3 serves HTTP/3 over QUIC with it), to s's
// lifetime, as Server.HTTP2 is: Shutdown calls t.Shutdown at each of its
// polls, and Drain calls t's Drain method, when it has one (both must be
// cheap to repeat, see ConnServer). The returned function counts t's
// connections among s's: call it with +1 when one begins and -1 when it
// ends; Shutdown and Drain wait for them as for s's own. For +1 it
// reports false, and does not count the connection, once Shutdown has
// begun or when MaxConns connections are served: t must then refuse
// it. Call Attach before s serves.
func (s *Server) Attach(t interface{ Shutdown() }) (count func(delta int) bool) {
	s.mu.Lock()
	s.attached = append(s.attached, t)
	s.mu.Unlock()
	return func(delta int) bool {
		if delta > 0 && s.closing.Load() {
			return false
		}
		n := s.active.Add(int64(delta))
		if delta > 0 && s.MaxConns > 0 && n > int64(s.MaxConns) {
			s.active.Add(int64(-delta))
			return false
		}
		return true
	}
}

// attachedServers returns the servers of Attach.
func (s *Server) attachedServers() []interface{ Shutdown() } {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attached
}

// shutdownAttached asks the servers of Attach to end gracefully.
func (s *Server) shutdownAttached() {
	for _, t := range s.attachedServers() {
		t.Shutdown()
	}
}

// drainAttached asks the servers of Attach that can drain to.
func (s *Server) drainAttached() {
	for _, t := range s.attachedServers() {
		if d, ok := t.(interface{ Drain() }); ok {
			d.Drain()
		}
	}
}
