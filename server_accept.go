package brisk

import (
	"time"
)

// Accept errors: a listener whose Accept fails with a temporary error
// (EMFILE or ENFILE when the process or the system is out of file
// descriptors, ECONNABORTED, ENOBUFS, ...) is retried after a delay that
// doubles from acceptMinDelay to acceptMaxDelay, as net/http does, and
// resets after a success; the error is logged at most once per
// acceptLogEvery, and counted (AcceptErrors).
const (
	acceptMinDelay = 5 * time.Millisecond
	acceptMaxDelay = time.Second
	acceptLogEvery = time.Second
)

// AcceptErrors returns the number of times Accept failed with a
// temporary error on the server's listeners since it started serving:
// each was retried after a delay. A count that grows is mostly a process
// out of file descriptors (EMFILE; raise RLIMIT_NOFILE or lower
// MaxConns) or a system out of them (ENFILE): the kernel keeps
// completing handshakes of connections nobody serves until then. Export
// it as a counter. Safe to call concurrently with serving.
func (s *Server) AcceptErrors() uint64 { return s.acceptErrs.Load() }

// acceptRetry paces the retries of one listener's Accept.
type acceptRetry struct {
	delay      time.Duration // the last delay; 0 after a success
	logged     time.Time     // when the last line was logged
	suppressed int           // errors not logged since
}

// failed counts and logs (rate-limited) err and returns how long to
// wait before the next Accept.
func (r *acceptRetry) failed(s *Server, err error) time.Duration {
	s.acceptErrs.Add(1)
	r.delay = min(max(2*r.delay, acceptMinDelay), acceptMaxDelay)
	now := time.Now()
	if now.Sub(r.logged) < acceptLogEvery {
		r.suppressed++
		return r.delay
	}
	s.logger.Error("brisk: Accept error; retrying", "err", err, "retry_in", r.delay,
		"suppressed", r.suppressed, "total", s.acceptErrs.Load())
	r.logged, r.suppressed = now, 0
	return r.delay
}
