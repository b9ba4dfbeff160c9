package h3

import "github.com/brisk-http/brisk"

// newBridge returns the Server that serves each HTTP/3 request, through
// its HTTPHandler, with srv's Handler and srv's configuration for one
// request, so that the requests' in-memory connections do not count
// towards srv's MaxConns (which counts their QUIC connection once).
func newBridge(srv *brisk.Server) *brisk.Server {
	return &brisk.Server{
		Handler:             srv.Handler,
		Name:                srv.Name,
		Logger:              srv.Logger,
		MaxRequestLineBytes: srv.MaxRequestLineBytes,
		MaxHeaderBytes:      srv.MaxHeaderBytes,
		MaxFields:           srv.MaxFields,
		MaxBodyBytes:        srv.MaxBodyBytes,
		ReadBufferSize:      srv.ReadBufferSize,
		WriteBufferSize:     srv.WriteBufferSize,
		ReadHeaderTimeout:   srv.ReadHeaderTimeout,
		ReadTimeout:         srv.ReadTimeout,
		WriteTimeout:        srv.WriteTimeout,
		IgnoreClientClose:   srv.IgnoreClientClose,
		TrustedProxies:      srv.TrustedProxies,
		ClientIPField:       srv.ClientIPField,
		OnRequestDone:       srv.OnRequestDone,
		ErrorHandler:        srv.ErrorHandler,
		JSON:                srv.JSON,

		MinRequestBodyRate:      srv.MinRequestBodyRate,
		MinRequestBodyRateGrace: srv.MinRequestBodyRateGrace,
		MinResponseRate:         srv.MinResponseRate,
		MinResponseRateGrace:    srv.MinResponseRateGrace,
	}
}

// bridgeSkips lists the brisk.Server fields newBridge does not copy, with
// the reason (TestBridgeConfig checks that every field is in one list).
var bridgeSkips = map[string]string{
	"IdleTimeout":         "a bridged connection carries one request; quic-go applies it to the QUIC connection",
	"MaxConns":            "counted on srv for the QUIC connection (Attach), not per request",
	"MaxRequestsPerConn":  "a bridged connection carries one request; HTTP/3 has no counterpart",
	"CloseHijacked":       "HTTP/3 streams cannot be hijacked",
	"TLSConfig":           "TLS is QUIC's; the bridged request carries its state",
	"TLSHandshakeTimeout": "mapped to the QUIC handshake timeout",
	"HTTP2":               "the bridge speaks HTTP/1.1 to the handler",
	"H2C":                 "the bridge speaks HTTP/1.1 to the handler",
	"ProxyProtocol":       "no PROXY header precedes a QUIC connection",
	"DrainDelay":          "Drain is srv's",
	"ConnState":           "QUIC connections are not net.Conns; bridged connections are per request",
	"OnReject":            "quic-go parses HTTP/3 requests; the bridge's HTTP/1.1 is generated, never rejected",
	"ParkIdle":            "a bridged connection is in memory and carries one request: nothing to park",
	"ParkIdleAfter":       "see ParkIdle",
}
