package main

import (
	"flag"
	"time"

	"github.com/brisk-http/brisk"
)

// operatorOptions are the flags of `brisk serve` for what operators tune:
// limits, timeouts, minimum data rates, parking and the shutdown
// deadline. Each maps to the brisk.Server field of the same name, whose
// doc gives the exact rule; zero leaves the field as serve sets it (the
// library's default, or this command's 30 s read and write timeouts) and
// a negative value, where the field allows it, means none.
type operatorOptions struct {
	shutdownTimeout time.Duration // -shutdown-timeout

	maxConns           int
	maxRequestsPerConn int
	maxBodyBytes       int64

	readHeaderTimeout   time.Duration
	readTimeout         time.Duration
	writeTimeout        time.Duration
	idleTimeout         time.Duration
	tlsHandshakeTimeout time.Duration
	minRequestBodyRate  int
	minResponseRate     int

	noParkIdle    bool
	parkIdleAfter time.Duration
}

// addFlags adds the flags to fs.
func (o *operatorOptions) addFlags(fs *flag.FlagSet) {
	fs.DurationVar(&o.shutdownTimeout, "shutdown-timeout", defaultShutdownTimeout,
		"on SIGINT or SIGTERM (after -drain-delay), or after a SIGHUP restart, give the requests in flight `duration` to finish, then cut and log each response still going (0: 10s; negative: no limit)")
	fs.IntVar(&o.maxConns, "max-conns", 0, "serve at most `N` connections at once; more are answered 503 (0: no limit)")
	fs.IntVar(&o.maxRequestsPerConn, "max-requests-per-conn", 0, "close a keep-alive connection after `N` requests (0: no limit)")
	fs.Int64Var(&o.maxBodyBytes, "max-body-bytes", 0, "the largest request body in `bytes`, answered 413 beyond (0: 4 MiB)")
	fs.DurationVar(&o.readHeaderTimeout, "read-header-timeout", 0, "time to read a request head once it began (0: 10s; negative: none)")
	fs.DurationVar(&o.readTimeout, "read-timeout", bodyTimeout, "time to read a request body (negative: none)")
	fs.DurationVar(&o.writeTimeout, "write-timeout", writeTimeout, "time for each write of a response (negative: none)")
	fs.DurationVar(&o.idleTimeout, "idle-timeout", 0, "time a keep-alive connection may wait for its next request (0: 60s; negative: none)")
	fs.DurationVar(&o.tlsHandshakeTimeout, "tls-handshake-timeout", 0, "time for a TLS handshake (0: 10s; negative: none)")
	fs.IntVar(&o.minRequestBodyRate, "min-request-body-rate", 0, "the slowest request body, in `bytes/s` after a 5 s grace (0: 240; negative: none)")
	fs.IntVar(&o.minResponseRate, "min-response-rate", 0, "the slowest a client may read a response, in `bytes/s` after a 5 s grace (0: 240; negative: none)")
	fs.BoolVar(&o.noParkIdle, "no-park-idle", false, "keep idle keep-alive connections in their goroutines (by default, on Linux, they are parked out of them: less memory)")
	fs.DurationVar(&o.parkIdleAfter, "park-idle-after", 0, "park a keep-alive connection idle this long (0: 2s; negative: at once)")
}

// defaultShutdownTimeout is -shutdown-timeout's default.
const defaultShutdownTimeout = 10 * time.Second

// apply sets the fields of srv whose options are not zero.
func (o *operatorOptions) apply(srv *brisk.Server) {
	set(&srv.MaxConns, o.maxConns)
	set(&srv.MaxRequestsPerConn, o.maxRequestsPerConn)
	set(&srv.MaxBodyBytes, o.maxBodyBytes)
	set(&srv.ReadHeaderTimeout, o.readHeaderTimeout)
	set(&srv.ReadTimeout, o.readTimeout)
	set(&srv.WriteTimeout, o.writeTimeout)
	set(&srv.IdleTimeout, o.idleTimeout)
	set(&srv.TLSHandshakeTimeout, o.tlsHandshakeTimeout)
	set(&srv.MinRequestBodyRate, o.minRequestBodyRate)
	set(&srv.MinResponseRate, o.minResponseRate)
	set(&srv.NoParkIdle, o.noParkIdle)
	set(&srv.ParkIdleAfter, o.parkIdleAfter)
}

// set stores v in *field unless v is the zero value.
func set[T comparable](field *T, v T) {
	var zero T
	if v != zero {
		*field = v
	}
}

// shutdownDeadline resolves -shutdown-timeout: how long shutdown waits
// for the requests in flight; negative means without limit (a century).
func (o *operatorOptions) shutdownDeadline() time.Duration {
	switch {
	case o.shutdownTimeout == 0:
		return defaultShutdownTimeout
	case o.shutdownTimeout < 0:
		return 100 * 365 * 24 * time.Hour
	}
	return o.shutdownTimeout
}
