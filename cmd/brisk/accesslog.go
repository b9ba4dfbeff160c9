package main

import (
	"log/slog"
	"net"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/middleware"
)

// logRejected returns a brisk.Server.OnReject that logs through logger,
// as `brisk serve -log` does, the requests whose head did not parse: for
// a server whose completed requests are logged another way (`brisk proxy
// -log`).
func logRejected(logger *slog.Logger) func(brisk.Rejection) {
	return (&middleware.AccessLog{Logger: logger}).OnReject
}

// addrString is a's "host:port", or "" for none.
func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}
