package h2

import (
	"context"
	"net/http"

	"github.com/brisk-http/brisk"
)

// bridge is the HTTP/2 handler when Config.Handler is nil: srv.Handler
// through brisk.Server.HTTPHandler of a second Server with srv's
// configuration for one request (sizes, timeouts, Name, Logger), so that
// the streams' in-memory connections do not count towards srv's MaxConns,
// which counts their HTTP/2 connection once. Shutdown cancels its
// requests' contexts.
type bridge struct {
	srv  *brisk.Server
	http http.Handler
}

func newBridge(srv *brisk.Server) *bridge {
	b := &brisk.Server{
		Handler:             srv.Handler,
		Name:                srv.Name,
		Logger:              srv.Logger,
		ErrorHandler:        srv.ErrorHandler,
		JSON:                srv.JSON,
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

		MinRequestBodyRate:      srv.MinRequestBodyRate,
		MinRequestBodyRateGrace: srv.MinRequestBodyRateGrace,
		MinResponseRate:         srv.MinResponseRate,
		MinResponseRateGrace:    srv.MinResponseRateGrace,
	}
	return &bridge{srv: b, http: b.HTTPHandler()}
}

// bridgeSkips lists the brisk.Server fields newBridge does not copy, with
// the reason (TestBridgeConfig checks that every field is in one list).
var bridgeSkips = map[string]string{
	"IdleTimeout":         "a bridged connection carries one request; HTTP/2 applies it to the connection",
	"MaxConns":            "counted on srv for the HTTP/2 connection, not per stream",
	"MaxRequestsPerConn":  "a bridged connection carries one request",
	"CloseHijacked":       "HTTP/2 streams cannot be hijacked",
	"TLSConfig":           "TLS is srv's; the bridged request carries its state",
	"TLSHandshakeTimeout": "TLS is srv's",
	"HTTP2":               "the bridge speaks HTTP/1.1 to the handler",
	"H2C":                 "the bridge speaks HTTP/1.1 to the handler",
	"ProxyProtocol":       "a PROXY header precedes the HTTP/2 connection and is read by srv, whose hand-over reports its source as RemoteAddr",
	"DrainDelay":          "Drain is srv's",
	"ConnState":           "srv reports the HTTP/2 connection; bridged connections are per request",
	"OnReject":            "x/net/http2 parses HTTP/2 requests; the bridge's HTTP/1.1 is generated, never rejected",
	"ParkIdle":            "a bridged connection is in memory and carries one request: nothing to park",
	"ParkIdleAfter":       "see ParkIdle",
}

// shutdown cancels the bridged requests' contexts, as srv.Shutdown does
// for HTTP/1.1, and lets them finish.
func (b *bridge) shutdown() { go b.srv.Shutdown(context.Background()) }
