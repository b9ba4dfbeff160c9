// Package lb balances a brisk client's requests over the servers of one
// service: each request goes to the server with the fewest requests
// outstanding, a server that fails is left alone for a penalty period,
// and a request that failed is sent to another server when that is safe.
//
//	c := &lb.Client{Addrs: []string{"10.0.0.11:8080", "10.0.0.12:8080"}}
//	err := c.Do(&req, &resp)
//
// Each server has its own brisk.HostClient, configured by the Client's
// brisk.ClientConfig; the package uses only brisk's exported API.
package lb
