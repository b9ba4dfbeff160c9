// Package clients holds the real-client matrix tests: curl (HTTP/1.0 and
// 1.1, connection reuse, chunked and 100-continue uploads, HEAD), Go's
// net/http client, Node.js http with a keep-alive agent, Python's
// http.client and wrk with and without pipelining, each run against a
// brisk.Server on loopback and each asserting the responses. A test skips
// only when its client binary is not on PATH. The package has no API.
package clients
