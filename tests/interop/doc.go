// Package interop tests brisk with code written for net/http and with
// WebSocket libraries: net/http/pprof, expvar, promhttp, a chi router,
// http.FileServer, server-sent events (package sse in Chromium's
// EventSource), gorilla/websocket through brisk.FromHTTP, gobwas/ws over
// Ctx.Upgrade, and package websocket against the clients of
// gorilla/websocket, coder/websocket, Node.js's ws, Python's websockets
// (Debian's python3-websockets) and Chromium.
//
// The Autobahn test suite's fuzzing client is not run: it is the
// autobahntestsuite package, installed with pip (PyPI is not reachable
// here) or as a Docker image; Debian's python3-autobahn is the Autobahn
// library, without the suite.
//
// It is a separate module so that these dependencies stay out of
// brisk's go.mod.
package interop
