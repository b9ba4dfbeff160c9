// Package hostile holds hostile-load tests of brisk.Server, bounded in time
// and run on loopback only: slowloris heads trickled one byte at a time
// while a normal client keeps its request rate, more connections than
// MaxConns, a client that never reads its responses, oversized heads,
// bodies, chunk extensions and trailers (right status, bounded bytes read)
// and floods of pipelined requests. Every test checks that the goroutine
// count returns to its baseline and that the heap stays bounded. The
// package has no API.
package hostile
