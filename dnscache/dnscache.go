package dnscache

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultTTL is how long a Cache keeps a look-up result when its TTL is
// zero.
const DefaultTTL = time.Minute

// DefaultMaxEntries is the most names a Cache keeps when its MaxEntries
// is zero.
const DefaultMaxEntries = 1024

// lookupTimeout bounds a look-up (see resolve): brisk.DefaultDialTimeout,
// which a test checks, so that a look-up gives up when the dial it serves
// would.
const lookupTimeout = 5 * time.Second

// Resolver looks up the IP addresses of a host name; *net.Resolver fits.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Cache dials host names with the addresses of a cached look-up, so
// that a client dialling many connections to one host asks the resolver
// once per TTL, not once per dial. Use its DialContext as
// brisk.ClientConfig.Dial. Concurrent dials of a name not in the cache
// share one look-up. The zero value is ready to use; set the fields
// before the first dial. A Cache is safe for concurrent use.
type Cache struct {
	// Resolver looks names up. Nil means net.DefaultResolver.
	Resolver Resolver

	// TTL is how long a look-up result is used, from when it completed.
	// Zero means DefaultTTL (1 min); negative means every dial
	// looks up (concurrent ones still share). A failed look-up is not
	// kept: the next dial asks again.
	TTL time.Duration

	// MaxEntries bounds the names kept. Zero means DefaultMaxEntries
	// (1024); negative means no bound. Entries
	// past their TTL, and failed look-ups, are dropped when a new name
	// is looked up, at most once per TTL or whenever the cache is full;
	// a full cache with none of those drops the entry that expires
	// first.
	MaxEntries int

	// Dial connects to one resolved address ("ip:port"). Nil means a
	// net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)

	mu        sync.Mutex
	entries   map[string]*dnsEntry // by host name
	nextSweep time.Time            // when prune next drops stale entries
	dialer    net.Dialer
}

// dnsEntry is one name's look-up: in flight until done is closed.
type dnsEntry struct {
	done    chan struct{}
	addrs   []netip.Addr
	err     error
	expires time.Time
	next    atomic.Uint32 // rotates the first address tried
}

// DialContext dials addr ("host:port") on network ("tcp", "tcp4",
// "tcp6"): an IP literal directly, a name with its cached addresses,
// each in turn until one connects (starting with a different one on each
// dial, to spread connections). The error is the last dial's, or the
// look-up's (a *net.DNSError from net.Resolver).
func (d *Cache) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return d.dial(ctx, network, addr)
	}
	e, err := d.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	start := int(e.next.Add(1))
	err = &net.AddrError{Err: "no address of the network", Addr: host}
	for i := range e.addrs {
		ip := e.addrs[(start+i)%len(e.addrs)]
		if network == "tcp4" && !ip.Is4() || network == "tcp6" && ip.Is4() {
			continue
		}
		var nc net.Conn
		if nc, err = d.dial(ctx, network, net.JoinHostPort(ip.String(), port)); err == nil {
			return nc, nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, err
}

func (d *Cache) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.Dial != nil {
		return d.Dial(ctx, network, addr)
	}
	return d.dialer.DialContext(ctx, network, addr)
}

// lookup returns the entry of host: a fresh cached one, the one in
// flight, or a new look-up, which the caller makes.
func (d *Cache) lookup(ctx context.Context, host string) (*dnsEntry, error) {
	now := time.Now()
	d.mu.Lock()
	e := d.entries[host]
	if e != nil && e.resolved() && (now.After(e.expires) || e.err != nil) {
		e = nil // stale: look up again (one in flight is waited for)
	}
	if e == nil {
		e = &dnsEntry{done: make(chan struct{})}
		if d.entries == nil {
			d.entries = map[string]*dnsEntry{}
		}
		if _, ok := d.entries[host]; !ok {
			d.prune(now)
		}
		d.entries[host] = e
		d.mu.Unlock()
		go d.resolve(host, e)
	} else {
		d.mu.Unlock()
	}
	select {
	case <-e.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if e.err != nil {
		return nil, e.err
	}
	return e, nil
}

// resolve looks host up into e and closes e.done. The look-up is bounded
// by lookupTimeout (5 s, brisk.DefaultDialTimeout), not by the first
// caller's context, since other dials share it.
func (d *Cache) resolve(host string, e *dnsEntry) {
	r := d.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	e.addrs, e.err = r.LookupNetIP(ctx, "ip", host)
	if e.err == nil && len(e.addrs) == 0 {
		e.err = errNoAddrs
	}
	e.expires = time.Now().Add(d.ttl())
	close(e.done)
}

// ttl resolves TTL.
func (d *Cache) ttl() time.Duration {
	if d.TTL == 0 {
		return DefaultTTL
	}
	return d.TTL
}

// prune makes room, with d.mu held, for a name about to be added at now:
// it drops the look-ups done and stale (failed, or past their TTL) once
// per TTL or when the cache is full, and then, if it is still full, the
// entry that expires first (an in-flight one only when all are: its
// dials still get its result).
func (d *Cache) prune(now time.Time) {
	limit := d.MaxEntries
	if limit == 0 {
		limit = DefaultMaxEntries
	}
	full := limit > 0 && len(d.entries) >= limit
	if !full && now.Before(d.nextSweep) {
		return
	}
	d.nextSweep = now.Add(d.ttl())
	var first string
	var firstAt time.Time
	for name, e := range d.entries {
		if !e.resolved() {
			if first == "" {
				first = name
			}
			continue
		}
		if e.err != nil || now.After(e.expires) {
			delete(d.entries, name)
		} else if first == "" || !d.entries[first].resolved() || e.expires.Before(firstAt) {
			first, firstAt = name, e.expires
		}
	}
	if limit > 0 && len(d.entries) >= limit {
		delete(d.entries, first)
	}
}

// resolved reports whether e's look-up is done.
func (e *dnsEntry) resolved() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}
