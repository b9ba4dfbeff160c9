// Package load is the HTTP/1.1 load generator behind `brisk load`.
//
// Run opens Config.Connections TCP connections to one URL and sends the
// same pre-encoded request on each, as fast as responses come back
// (closed loop) or on a fixed schedule (Config.Rate, open loop). Each
// connection is one goroutine working directly on a net.Conn with the
// wire codec: the request bytes are encoded once, responses are parsed
// with wire.Parser.ParseResponse into reused storage and their bodies are
// skipped by their framing, so the steady state allocates nothing and
// takes no lock. Latencies go into one HdrHistogram per connection,
// merged when the run ends.
//
// A minimal run:
//
//	res, err := load.Run(ctx, load.Config{
//		URL:         "http://127.0.0.1:8080/plaintext",
//		Connections: 50,
//		Duration:    5 * time.Second,
//	}, nil) // or a terminal, for a live progress line
//	if err != nil {
//		return err
//	}
//	res.WriteText(os.Stdout)
package load
