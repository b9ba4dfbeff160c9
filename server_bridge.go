package brisk

// ForBridge returns a new Server for the requests that another transport
// hands over one at a time through its HTTPHandler (the h2 and h3
// packages): it has s's per-request configuration — Handler, Name,
// Logger, ErrorHandler, JSON, the request limits, buffer sizes, timeouts
// and data rates, TrustedProxies, ClientIPField, IgnoreClientClose,
// OnReject and OnRequestDone — and none of s's connection-level fields
// (MaxConns, MaxRequestsPerConn, IdleTimeout, TLS, HTTP2, H2C,
// ProxyProtocol, DrainDelay, ConnState, parking, CloseHijacked): the
// transport applies those to its own connections, so that its in-memory
// per-request connections do not count towards s's MaxConns. Set s's
// fields first: the copy does not see later changes.
func (s *Server) ForBridge() *Server {
	return &Server{
		Handler:             s.Handler,
		Name:                s.Name,
		Logger:              s.Logger,
		ErrorHandler:        s.ErrorHandler,
		JSON:                s.JSON,
		MaxRequestLineBytes: s.MaxRequestLineBytes,
		MaxHeaderBytes:      s.MaxHeaderBytes,
		MaxFields:           s.MaxFields,
		MaxBodyBytes:        s.MaxBodyBytes,
		ReadBufferSize:      s.ReadBufferSize,
		WriteBufferSize:     s.WriteBufferSize,
		ReadHeaderTimeout:   s.ReadHeaderTimeout,
		ReadTimeout:         s.ReadTimeout,
		WriteTimeout:        s.WriteTimeout,
		IgnoreClientClose:   s.IgnoreClientClose,
		TrustedProxies:      s.TrustedProxies,
		ClientIPField:       s.ClientIPField,
		OnRequestDone:       s.OnRequestDone,
		OnReject:            s.OnReject,

		MinRequestBodyRate:      s.MinRequestBodyRate,
		MinRequestBodyRateGrace: s.MinRequestBodyRateGrace,
		MinResponseRate:         s.MinResponseRate,
		MinResponseRateGrace:    s.MinResponseRateGrace,
	}
}
