package brisk

import (
	"time"

	"github.com/brisk-http/brisk/internal/limit"
	"github.com/brisk-http/brisk/wire"
)

// Default limits and timeouts, used when the corresponding Server field is
// zero. Every one is documented on its Server field.
const (
	DefaultMaxRequestLineBytes = wire.DefaultMaxRequestLineBytes // 8 KiB
	DefaultMaxHeaderBytes      = wire.DefaultMaxHeaderBytes      // 64 KiB; also the trailer section's limit
	DefaultMaxFields           = 128
	DefaultMaxBodyBytes        = 4 << 20 // 4 MiB
	DefaultReadBufferSize      = 4 << 10 // 4 KiB
	DefaultWriteBufferSize     = 4 << 10 // 4 KiB
	DefaultReadHeaderTimeout   = 10 * time.Second
	DefaultIdleTimeout         = 60 * time.Second

	DefaultMinRequestBodyRate      = 240 // bytes per second
	DefaultMinRequestBodyRateGrace = 5 * time.Second
	DefaultMinResponseRate         = 240 // bytes per second
	DefaultMinResponseRateGrace    = 5 * time.Second
)

// maxDrainBytes bounds the unread request body the server discards after
// the handler returns so that the connection can be kept alive. A larger
// unread remainder closes the connection instead. Like net/http's bound
// on the same thing, it is not configurable: it trades a little input
// for a kept connection, and is no limit a service needs to set.
const maxDrainBytes = 256 << 10 // 256 KiB

// limits holds the effective limits of a Server, resolved once from its
// configuration when it starts serving. Zero durations mean "none".
type limits struct {
	maxRequestLine     int
	maxHeader          int
	maxFields          int
	maxBody            int64 // < 0: unlimited
	readBufSize        int
	writeBufSize       int
	readHeaderTimeout  time.Duration
	readTimeout        time.Duration
	writeTimeout       time.Duration
	idleTimeout        time.Duration
	maxConns           int
	maxRequestsPerConn int
	bodyRate           minRate
	respRate           minRate
	coarseWrite        bool // writeTimeout and respRate measured with the coarse clock
	coarseBody         bool // readTimeout and bodyRate measured with the coarse clock
}

// resolveLimits applies the documented defaults to the Server fields.
func (s *Server) resolveLimits() limits {
	l := s.resolveFields()
	l.coarseWrite = coarse(l.writeTimeout, l.respRate)
	l.coarseBody = coarse(l.readTimeout, l.bodyRate)
	return l
}

// coarse reports whether timeout d (0: none) and rate r are both measured
// with the coarse clock (see setReadTimeout).
func coarse(d time.Duration, r minRate) bool {
	return (d == 0 || d >= coarseTimeout) && (!r.on() || r.grace >= coarseTimeout)
}

func (s *Server) resolveFields() limits {
	return limits{
		maxRequestLine:     limit.Count(s.MaxRequestLineBytes, DefaultMaxRequestLineBytes),
		maxHeader:          limit.Count(s.MaxHeaderBytes, DefaultMaxHeaderBytes),
		maxFields:          limit.Count(s.MaxFields, DefaultMaxFields),
		maxBody:            limit.Bytes(s.MaxBodyBytes, DefaultMaxBodyBytes),
		readBufSize:        limit.Count(s.ReadBufferSize, DefaultReadBufferSize),
		writeBufSize:       limit.Count(s.WriteBufferSize, DefaultWriteBufferSize),
		readHeaderTimeout:  limit.Timeout(s.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		readTimeout:        limit.Timeout(s.ReadTimeout, 0),
		writeTimeout:       limit.Timeout(s.WriteTimeout, 0),
		idleTimeout:        limit.Timeout(s.IdleTimeout, DefaultIdleTimeout),
		maxConns:           max(s.MaxConns, 0),
		maxRequestsPerConn: max(s.MaxRequestsPerConn, 0),
		bodyRate: resolveRate(s.MinRequestBodyRate, s.MinRequestBodyRateGrace,
			DefaultMinRequestBodyRate, DefaultMinRequestBodyRateGrace),
		respRate: resolveRate(s.MinResponseRate, s.MinResponseRateGrace,
			DefaultMinResponseRate, DefaultMinResponseRateGrace),
	}
}

// bodyTooLarge reports whether n body bytes exceed the limit.
func (l *limits) bodyTooLarge(n int64) bool { return l.maxBody >= 0 && n > l.maxBody }

// Minimum data rates (Server.MinRequestBodyRate, Server.MinResponseRate),
// Kestrel's rule: once a grace period has passed, a client must move at
// least so many bytes per second, counted over the time the server spends
// waiting for it, never over the handler's own time. Neither adds a timer
// or a system call: the deadline already set for the body read, or on a
// write, is a lower bound of when the rate can first be broken, and only
// when it fires is the rate computed and the deadline moved to the next
// instant the rate could be broken. The request body's rate is judged
// by the body reader (server_bodyreader.go), the response's by the
// writes (server_write.go).

// minRate is a resolved minimum data rate; the zero value is disabled.
type minRate struct {
	perSec int64         // bytes per second; 0: disabled
	grace  time.Duration // waiting time before the rate applies
}

// resolveRate applies the documented defaults: zero means the default,
// a negative rate or grace disables the rule.
func resolveRate(perSec int, grace time.Duration, defPerSec int, defGrace time.Duration) minRate {
	if perSec < 0 || grace < 0 {
		return minRate{}
	}
	if perSec == 0 {
		perSec = defPerSec
	}
	if grace == 0 {
		grace = defGrace
	}
	return minRate{perSec: int64(perSec), grace: grace}
}

func (m minRate) on() bool { return m.perSec > 0 }

// allowed is the waiting time within which n bytes must have moved: the
// grace period, or n bytes at the rate when that is longer.
func (m minRate) allowed(n int64) time.Duration { return max(m.grace, m.atRate(n)) }

// atRate is the time n bytes take at the rate, capped at about 292 years
// (never reached: it only has to not overflow).
func (m minRate) atRate(n int64) time.Duration {
	const capped = time.Duration(1 << 62)
	if n >= int64(capped/time.Second) {
		return capped
	}
	return time.Duration(n) * time.Second / time.Duration(m.perSec)
}
