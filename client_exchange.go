package brisk

import (
	"context"
	"time"
)

// exchange is one call of Do, DoTimeout, DoDeadline, DoContext or
// DoStream, on Client or HostClient: the request and its response, and
// the policy the call carries (its deadline, whether to stream the body,
// which redirects to follow). Every public entry point builds one and
// runs it; the retry policy comes from the configuration (retries).
type exchange struct {
	ctx      context.Context
	req      *Request
	resp     *Response
	deadline time.Time   // with explicit: the call's deadline (zero: none)
	explicit bool        // deadline was given (DoTimeout, DoDeadline, a ctx deadline); else Timeout applies
	stream   bool        // DoStream: the body is left to a BodyStream, no redirect is followed
	into     *BodyStream // the caller's BodyStream to fill (DoStreamTo); nil: a new one

	maxRedirects int         // redirects to follow; <= 0: none
	client       *Client     // routes each request to its host (any origin)
	host         *HostClient // when client is nil: the only host, which follows redirects to its own origin only
}

// ctxExchange is the exchange of a call bounded by ctx (DoContext,
// DoStream): ctx's deadline, if it has one, is the call's.
func ctxExchange(ctx context.Context, req *Request, resp *Response) exchange {
	t, ok := ctx.Deadline()
	return exchange{ctx: ctx, req: req, resp: resp, deadline: t, explicit: ok}
}

// run sends x.req, one exchange per redirect followed (RFC 9110 §15.4),
// each through the HostClient and to the target that route gives, up to
// maxRedirects; a redirect beyond is ErrTooManyRedirects. For a stream it
// returns the BodyStream of the response.
func (x *exchange) run() (*BodyStream, error) {
	x.resp.resetReceived()
	for redirects := 0; ; redirects++ {
		hc, t, err := x.route()
		if err != nil {
			return nil, err
		}
		if hc.Jar != nil {
			addJarCookies(hc.Jar, &t)
		}
		s, err := hc.send(x, &t)
		if hc.Jar != nil && x.resp.status > 0 {
			storeJarCookies(hc.Jar, &t, x.resp)
		}
		if err != nil || x.stream || !followable(x.resp, x.maxRedirects) || !x.req.canFollow(x.resp.status) {
			return s, err
		}
		if redirects == x.maxRedirects {
			return nil, ErrTooManyRedirects
		}
		if err := redirect(x.req, x.resp, &t, x.client == nil); err != nil {
			return nil, err
		}
	}
}

// route returns the HostClient that sends x.req and its target.
func (x *exchange) route() (*HostClient, target, error) {
	if x.client != nil {
		return x.client.route(x.req)
	}
	t, err := x.host.target(x.req)
	return x.host, t, err
}

// deadlineAt returns the deadline of an exchange started at now: the
// call's, or now plus timeout (Timeout resolved; 0: none).
func (x *exchange) deadlineAt(now time.Time, timeout time.Duration) time.Time {
	if x.explicit || timeout == 0 {
		return x.deadline
	}
	return now.Add(timeout)
}

// retries returns how many times x.req may be sent again through hc when
// a reused connection turns out to be closed (MaxIdempotentRetries): 0
// unless its method is idempotent.
func (x *exchange) retries(hc *HostClient) int {
	if !idempotent(x.req.head.Method) {
		return 0
	}
	return hc.lim.retries
}
