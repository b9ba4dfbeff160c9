package lb

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/limit"
)

// DefaultHealthPenalty is how long a Client sends no request to a server
// after one failed, when HealthPenalty is zero.
const DefaultHealthPenalty = 3 * time.Second

// Client balances requests over the servers of one service, each with
// its own brisk.HostClient: each request goes to the server with the
// fewest requests outstanding, among those not in a penalty period. A
// request that fails with an error (not an HTTP status code: any
// complete response counts as success) puts its server in a penalty
// period of HealthPenalty, during which no request is sent to it (errors
// caused by the request itself, such as brisk.ErrInvalidRequest,
// brisk.ErrRequestBody or brisk.ErrBodyTooLarge, do not). The request is
// then sent to another server when that is safe: when it never left the
// client (the dial failed), or brisk.Request.Resendable says so (its
// method is idempotent, RFC 9110 §9.2.2, and its body can be sent
// again); each server is tried at most once per request. Set the fields
// before the first request. A Client is safe for concurrent use.
type Client struct {
	brisk.ClientConfig

	// Addrs are the servers' addresses, "host:port" (see
	// brisk.HostClient.Addr).
	// It is read once, at the first request; empty means every request
	// fails with ErrNoHealthyServer.
	Addrs []string

	// TLS makes the client dial the servers with TLS, using TLSConfig.
	TLS bool

	// HealthPenalty is how long a server that failed a request gets no
	// request, from the failure. Zero means DefaultHealthPenalty (3 s);
	// negative means no penalty.
	HealthPenalty time.Duration

	once    sync.Once
	servers []*server
	penalty time.Duration
	next    atomic.Uint32 // where pick starts: ties rotate over the servers
}

// server is one server of a Client.
type server struct {
	hc        *brisk.HostClient
	pending   atomic.Int64 // requests outstanding
	downUntil atomic.Int64 // end of the penalty period, in UnixNano; 0: none
}

func (lb *Client) init() {
	lb.penalty = limit.Timeout(lb.HealthPenalty, DefaultHealthPenalty)
	for _, a := range lb.Addrs {
		lb.servers = append(lb.servers, &server{hc: &brisk.HostClient{ClientConfig: lb.ClientConfig, Addr: a, TLS: lb.TLS}})
	}
}

// Do sends req to one server and reads the whole response into resp;
// see brisk.HostClient.Do and the type's doc for which server and when the
// request is sent again. Without any server out of its penalty period
// it is ErrNoHealthyServer, wrapping the last error when the request
// failed on a server.
func (lb *Client) Do(req *brisk.Request, resp *brisk.Response) error {
	return lb.DoContext(context.Background(), req, resp)
}

// DoContext is Do bounded by ctx; see brisk.Client.DoContext.
func (lb *Client) DoContext(ctx context.Context, req *brisk.Request, resp *brisk.Response) error {
	lb.once.Do(lb.init)
	var tried uint64 // bit i: server i failed this request (up to 64 servers tracked)
	var last error
	for {
		i := lb.pick(time.Now(), tried)
		if i < 0 {
			if last != nil {
				return errors.Join(ErrNoHealthyServer, last)
			}
			return ErrNoHealthyServer
		}
		s := lb.servers[i]
		s.pending.Add(1)
		err := s.hc.DoContext(ctx, req, resp)
		s.pending.Add(-1)
		if err == nil || ctx.Err() != nil || clientFault(err) {
			return err
		}
		if lb.penalty > 0 {
			s.downUntil.Store(time.Now().Add(lb.penalty).UnixNano())
		}
		if !resendable(req, err) {
			return err
		}
		tried |= 1 << (uint(i) % 64)
		last = err
	}
}

// pick returns the index of the server with the fewest requests
// outstanding that is not in its penalty period at now nor in tried, or
// -1. Ties rotate: each pick starts with the next server.
func (lb *Client) pick(now time.Time, tried uint64) int {
	best, bestPending := -1, int64(0)
	t := now.UnixNano()
	n := len(lb.servers)
	start := int(lb.next.Add(1))
	for k := range n {
		i := (start + k) % n
		s := lb.servers[i]
		if tried&(1<<(uint(i)%64)) != 0 || s.downUntil.Load() > t {
			continue
		}
		if p := s.pending.Load(); best < 0 || p < bestPending {
			best, bestPending = i, p
		}
	}
	return best
}

// resendable reports whether req, which failed with err, may be sent to
// another server: it never left the client (the dial failed), or it is
// idempotent with a body that can be sent again (req.Resendable).
func resendable(req *brisk.Request, err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	return req.Resendable() && !errors.Is(err, brisk.ErrInvalidRequest)
}

// clientFault reports errors caused by the request or the client's
// limits, not by the server: they neither penalise it nor are retried.
func clientFault(err error) bool {
	for _, e := range [...]error{brisk.ErrInvalidRequest, brisk.ErrInvalidURI, brisk.ErrRequestBody, brisk.ErrBodyNotRewindable, brisk.ErrBodyTooLarge} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// CloseIdleConnections closes the idle connections to every server.
func (lb *Client) CloseIdleConnections() {
	lb.once.Do(lb.init)
	for _, s := range lb.servers {
		s.hc.CloseIdleConnections()
	}
}
