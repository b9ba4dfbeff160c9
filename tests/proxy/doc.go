// Package proxy runs brisk's reverse proxy (package reverseproxy) between
// real clients and real backends: the conformance corpus through the
// proxy in front of brisk, net/http, nginx and a raw recorder of the bytes
// the backend receives, and hostile upstreams. The package has no API.
//
// Strict in the middle means: every request brisk rejects is rejected at
// the proxy with brisk's status; every request it accepts reaches the
// backend as one request, framed so that a parser other than brisk's
// (net/http's) reads the same method and body as brisk did; and no
// upstream response, however broken or late, desynchronises a client's
// connection or reaches a client other than the one whose request it
// answered (bytes an upstream sends unasked on a keep-alive connection
// may still be taken as its answer to the next request: nothing tells
// them apart).
package proxy
