package brisk

// Close stops the server at once: it closes the listeners and every
// connection, busy or not (parked ones included), and cancels every
// Ctx.Context; connections a handler took over are closed only with
// CloseHijacked. Call it when Shutdown or Drain returned ctx.Err(), to
// end what the deadline left running. Each connection closed in the
// middle of a request (its handler running or its response being
// written) is logged once, at Warn, when its goroutine notices, with the
// request's method and target and the client's address ("brisk: response
// cut by Close"); OnRequestDone, when set, gets the request with
// RequestInfo.Err set. A handler that neither writes nor watches its
// context goes on running after Close returns. HTTP/2 connections are
// closed too, their streams cut. Close returns nil; after it Serve
// returns ErrServerClosed.
func (s *Server) Close() error {
	s.closing.Store(true)
	s.mu.Lock()
	for ln := range s.listeners {
		ln.Close()
	}
	if s.cancel != nil {
		s.cancel()
	}
	s.date.halt()
	for c := range s.conns {
		if c.state.Load() == stateActive {
			c.cut.Store(true)
		}
		c.nc.Close() // c is in s.conns: finish has not cleared c.nc
	}
	s.mu.Unlock()
	s.hijacks.closeAll()
	s.closeParked()
	return nil
}

// logCut logs the request c was serving when Close cut it.
func (c *conn) logCut() {
	if c.nreq == 0 || len(c.ctx.Request.head.Method) == 0 {
		c.srv.logger.Warn("brisk: response cut by Close", "remote", c.nc.RemoteAddr().String(),
			"request", "none yet (HTTP/2, or a head being read)")
		return
	}
	c.srv.logger.Warn("brisk: response cut by Close", "remote", c.remoteAddr().String(),
		"method", string(c.ctx.Request.head.Method), "target", string(c.ctx.Request.head.Target))
}
