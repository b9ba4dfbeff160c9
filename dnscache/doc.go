// Package dnscache dials host names with the addresses of a cached DNS
// look-up, so that a client opening many connections to one host asks
// the resolver once per TTL, not once per dial:
//
//	dns := &dnscache.Cache{TTL: 30 * time.Second}
//	c := brisk.Client{ClientConfig: brisk.ClientConfig{Dial: dns.DialContext}}
//
// Cache.DialContext has the signature of brisk.ClientConfig.Dial (and of
// net.Dialer.DialContext); the package uses no brisk API.
package dnscache
