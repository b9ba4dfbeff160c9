// Package interop tests brisk with code written for net/http and with
// WebSocket libraries: net/http/pprof, expvar, promhttp, a chi router,
// http.FileServer, server-sent events, gorilla/websocket through
// brisk.FromHTTP, gobwas/ws over Ctx.Upgrade, and Node.js's ws client.
// It is a separate module so that these dependencies stay out of
// brisk's go.mod.
package interop
