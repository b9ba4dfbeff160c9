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
