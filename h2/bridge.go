package h2

import (
	"context"
	"net/http"

	"github.com/brisk-http/brisk"
)

// bridge is the HTTP/2 handler when Config.Handler is nil: srv.Handler
// through the HTTPHandler of srv.ForBridge(), srv's configuration for one
// request. Shutdown cancels its requests' contexts.
type bridge struct {
	srv  *brisk.Server
	http http.Handler
}

func newBridge(srv *brisk.Server) *bridge {
	b := srv.ForBridge()
	return &bridge{srv: b, http: b.HTTPHandler()}
}

// shutdown cancels the bridged requests' contexts, as srv.Shutdown does
// for HTTP/1.1, and lets them finish.
func (b *bridge) shutdown() { go b.srv.Shutdown(context.Background()) }
