package middleware

import (
	"errors"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/brisk-http/brisk"
)

// ErrRateLimited is the error RateLimit gives the ErrorHandler with its
// 429.
var ErrRateLimited = errors.New("middleware: rate limit exceeded")

// DefaultRateLimitKeys is the number of keys a RateLimit tracks when
// RateLimitConfig.MaxKeys is zero.
const DefaultRateLimitKeys = 100_000

// RateLimitConfig configures RateLimit: a token bucket per key that holds
// Burst tokens and refills at Rate tokens per second; each request takes
// one.
type RateLimitConfig struct {
	// Rate is the sustained rate allowed per key, in requests per
	// second. It must be positive.
	Rate float64

	// Burst is the bucket's size: how many requests a key may make at
	// once after being idle. Zero or negative means 1.
	Burst int

	// Key appends the key of the request c to dst and returns it. Nil
	// means the client's address (Ctx.ClientIP: the peer, or the address
	// a trusted proxy gave): an IPv4 address, or an IPv6 address's /64
	// prefix, which a single host may hold whole (RFC 7421 §2).
	Key func(dst []byte, c *brisk.Ctx) []byte

	// MaxKeys bounds the keys tracked, and so the memory (about 100
	// bytes a key). Zero or negative means DefaultRateLimitKeys. When it
	// is reached, keys whose buckets have refilled are forgotten, then
	// arbitrary ones (which start again with a full bucket), down to 7/8
	// of MaxKeys.
	MaxKeys int

	// Now returns the current time; nil means time.Now. For tests.
	Now func() time.Time
}

// RateLimit returns a middleware that limits each key (by default each
// client address) to cfg.Rate requests per second with bursts of
// cfg.Burst. A request over the limit is answered 429 Too Many Requests
// (RFC 6585 §4) through Ctx.Error (ErrRateLimited), with Retry-After
// (RFC 9110 §10.2.3: whole seconds until a token is back, at least 1),
// without calling next. Every response carries the RateLimit-Policy and
// RateLimit fields of draft-ietf-httpapi-ratelimit-headers: policy
// "default" with quota q (Burst) and window w (seconds to refill it), and
// remaining r tokens and t seconds until the bucket is full again. A
// RateLimit is safe for concurrent use; it holds one lock per request.
// It panics when cfg.Rate is not positive.
func RateLimit(cfg RateLimitConfig) brisk.Middleware {
	l := newLimiter(cfg)
	return func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			if l.admit(c) {
				next(c)
			}
		}
	}
}

// limiter holds the buckets of a RateLimit.
type limiter struct {
	rate    float64
	burst   float64
	key     func([]byte, *brisk.Ctx) []byte
	maxKeys int
	now     func() time.Time
	policy  string // RateLimit-Policy value

	mu      sync.Mutex
	buckets map[string]*bucket
	scratch sync.Pool // *[]byte: keys and field values
}

// bucket is one key's tokens as of last.
type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(cfg RateLimitConfig) *limiter {
	if !(cfg.Rate > 0) {
		panic("middleware: RateLimit Rate must be positive")
	}
	l := &limiter{rate: cfg.Rate, burst: float64(max(cfg.Burst, 1)), key: cfg.Key,
		maxKeys: cfg.MaxKeys, now: cfg.Now, buckets: make(map[string]*bucket)}
	if l.key == nil {
		l.key = clientIPKey
	}
	if l.maxKeys <= 0 {
		l.maxKeys = DefaultRateLimitKeys
	}
	if l.now == nil {
		l.now = time.Now
	}
	window := int64(math.Ceil(l.burst / l.rate))
	l.policy = `"default";q=` + strconv.Itoa(int(l.burst)) + ";w=" + strconv.FormatInt(window, 10)
	l.scratch.New = func() any { b := make([]byte, 0, 64); return &b }
	return l
}

// clientIPKey is the default key, 16 bytes: the client's IPv4 address,
// or the /64 prefix of its IPv6 address (a host gets a /64 whole, RFC
// 7421 §2, and would otherwise get a new bucket per address).
func clientIPKey(dst []byte, c *brisk.Ctx) []byte {
	ip := c.ClientIP().Unmap()
	a := ip.As16()
	if ip.Is6() {
		clear(a[8:])
	}
	return append(dst, a[:]...)
}

// admit takes a token for c's key, sets the RateLimit fields, and
// answers 429 when there was none; it reports whether to serve c.
func (l *limiter) admit(c *brisk.Ctx) bool {
	sp := l.scratch.Get().(*[]byte)
	defer l.scratch.Put(sp)
	key := l.key((*sp)[:0], c)
	now := l.now()
	l.mu.Lock()
	b := l.buckets[string(key)]
	if b == nil {
		b = l.add(string(key), now)
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	ok := b.tokens >= 1
	if ok {
		b.tokens--
	}
	tokens := b.tokens
	l.mu.Unlock()
	*sp = key
	if !ok {
		c.Error(429, ErrRateLimited)
		wait := int64(math.Ceil((1 - tokens) / l.rate))
		*sp = strconv.AppendInt((*sp)[:0], max(wait, 1), 10)
		c.Response.Header.SetBytes(retryAfterName, *sp)
	}
	c.Response.Header.Set("RateLimit-Policy", l.policy)
	v := append((*sp)[:0], `"default";r=`...)
	v = strconv.AppendInt(v, int64(tokens), 10)
	v = append(v, ";t="...)
	v = strconv.AppendInt(v, int64(math.Ceil((l.burst-tokens)/l.rate)), 10)
	*sp = v
	c.Response.Header.SetBytes(rateLimitName, v)
	return ok
}

var (
	retryAfterName = []byte("Retry-After")
	rateLimitName  = []byte("RateLimit")
)

// add makes a full bucket for key, forgetting others first when MaxKeys
// are tracked. l.mu is held.
func (l *limiter) add(key string, now time.Time) *bucket {
	if len(l.buckets) >= l.maxKeys {
		l.evict(now)
	}
	b := &bucket{tokens: l.burst, last: now}
	l.buckets[key] = b
	return b
}

// evict forgets the keys whose buckets are full again (as a new key's
// is), then arbitrary ones, until at most 7/8 of MaxKeys are left, so
// that a sweep over the keys comes at most once per MaxKeys/8 new keys.
// l.mu is held.
func (l *limiter) evict(now time.Time) {
	full := l.burst / l.rate // seconds to refill from empty
	for k, b := range l.buckets {
		if now.Sub(b.last).Seconds() >= full {
			delete(l.buckets, k)
		}
	}
	keep := l.maxKeys - max(l.maxKeys/8, 1)
	for k := range l.buckets {
		if len(l.buckets) <= keep {
			break
		}
		delete(l.buckets, k)
	}
}
