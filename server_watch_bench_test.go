package brisk

import "testing"

// askingHandler asks for the request's context, so that the client-close
// watch runs, and answers as helloHandler.
func askingHandler(c *Ctx) {
	c.Context()
	helloHandler(c)
}

// BenchmarkServerClientClose: a keep-alive GET over loopback TCP with the
// client-close watch on (the default), for a handler that asks for the
// context (a context, a goroutine and a one-byte read per request) and one
// that does not (nothing).
func BenchmarkServerClientClose(b *testing.B) {
	b.Run("asked", func(b *testing.B) { benchmarkLoopback(b, &Server{Handler: askingHandler}) })
	b.Run("not_asked", func(b *testing.B) { benchmarkLoopback(b, &Server{Handler: helloHandler}) })
	b.Run("ignored", func(b *testing.B) {
		benchmarkLoopback(b, &Server{Handler: askingHandler, IgnoreClientClose: true})
	})
}
