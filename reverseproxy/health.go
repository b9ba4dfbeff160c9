package reverseproxy

import (
	"time"

	"github.com/brisk-http/brisk"
)

// DefaultHealthInterval is the time between two active health checks of
// an upstream when HealthInterval is zero.
const DefaultHealthInterval = 5 * time.Second

// startHealthChecks starts one checker per upstream when HealthCheck is
// set; Close stops them.
func (p *Proxy) startHealthChecks() {
	if p.HealthCheck == "" || len(p.ups) == 0 {
		return
	}
	every := p.HealthInterval
	if every <= 0 {
		every = DefaultHealthInterval
	}
	p.stop = make(chan struct{})
	for _, u := range p.ups {
		p.checkers.Add(1)
		go u.checkHealth(p.HealthCheck, every, p.stop, &p.checkers)
	}
}

// checkHealth sends GET path to u every interval, until stop is closed:
// an upstream that does not answer within the interval, or answers 5xx,
// is down (gets no request, as in a penalty period) until a check passes.
func (u *upstream) checkHealth(path string, every time.Duration, stop <-chan struct{}, done interface{ Done() }) {
	defer done.Done()
	var req brisk.Request
	var resp brisk.Response
	req.SetMethod("GET")
	req.SetTarget(path)
	req.SetHost(u.host)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		err := u.hc.DoTimeout(&req, &resp, every)
		u.down.Store(err != nil || resp.StatusCode() >= 500)
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// Close stops the active health checks and closes the idle connections.
// The Proxy must not serve requests after Close.
func (p *Proxy) Close() {
	p.once.Do(p.setup)
	if p.stop != nil {
		close(p.stop)
		p.checkers.Wait()
		p.stop = nil
	}
	p.CloseIdleConnections()
}
