package middleware

import (
	"strconv"
	"strings"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
)

// CORSConfig configures CORS, per the Fetch standard's CORS protocol
// (fetch.spec.whatwg.org, "CORS protocol").
type CORSConfig struct {
	// AllowOrigins lists the origins allowed, each as a browser sends it
	// in Origin: scheme "://" host [":" port], compared exactly (ASCII
	// case-insensitively). "*" allows any origin. Empty allows none.
	AllowOrigins []string

	// AllowMethods lists the methods a preflight allows beyond the
	// CORS-safelisted GET, HEAD and POST. Empty means those alone.
	AllowMethods []string

	// AllowHeaders lists the request fields a preflight allows, compared
	// case-insensitively; "*" allows any. A browser asks only for fields
	// that are not CORS-safelisted: any field but Accept,
	// Accept-Language, Content-Language and Content-Type (and Range), and
	// these too when their value is not safelisted, such as Content-Type:
	// application/json, which must then be listed.
	// The preflight's answer echoes the fields asked for (the Fetch
	// standard reads a "*" answer as a name with credentials).
	AllowHeaders []string

	// ExposeHeaders lists the response fields scripts may read beyond the
	// CORS-safelisted ones (Access-Control-Expose-Headers).
	ExposeHeaders []string

	// AllowCredentials lets requests with credentials (cookies, HTTP
	// authentication) through (Access-Control-Allow-Credentials: true);
	// the Origin is then echoed, never "*".
	AllowCredentials bool

	// MaxAge is how long a browser may cache a preflight's answer
	// (Access-Control-Max-Age), in whole seconds. Zero means the field is
	// not sent (browsers then cache for 5 s); negative means "0".
	MaxAge time.Duration
}

// CORS returns a middleware for cross-origin requests (Fetch standard).
//
// A request with an Origin field from an allowed origin gets
// Access-Control-Allow-Origin (the origin, or "*" when any origin is
// allowed without credentials), Access-Control-Allow-Credentials and
// Access-Control-Expose-Headers as configured. A preflight (OPTIONS with
// Origin and Access-Control-Request-Method) is answered 204 without
// calling next: from an allowed origin, for an allowed method and
// allowed request fields, with Access-Control-Allow-Methods (the method
// asked for), Access-Control-Allow-Headers (the fields asked for) and
// Access-Control-Max-Age; else with none of them, which makes the browser
// fail the request. Every response carries "Vary: Origin" unless any
// origin is allowed without credentials (preflights: also the
// Access-Control-Request-* fields), so caches keep answers per origin.
// A request without Origin is passed on with no other field: its
// response, which a cache may store, varies with Origin too.
func CORS(cfg CORSConfig) brisk.Middleware {
	p := newCORSPolicy(cfg)
	return func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			origin := c.Request.Header.Get("Origin")
			if origin == nil {
				p.varyOrigin(c)
				next(c)
				return
			}
			if string(c.Request.Method()) == "OPTIONS" && c.Request.Header.Has("Access-Control-Request-Method") {
				p.preflight(c, origin)
				return
			}
			p.allowOrigin(c, origin)
			next(c)
		}
	}
}

// corsPolicy is a CORSConfig prepared for the requests.
type corsPolicy struct {
	origins     []string
	anyOrigin   bool
	methods     []string
	headers     []string
	anyHeader   bool
	credentials bool
	expose      string
	maxAge      string
}

func newCORSPolicy(cfg CORSConfig) *corsPolicy {
	p := &corsPolicy{
		methods:     append([]string{"GET", "HEAD", "POST"}, cfg.AllowMethods...),
		credentials: cfg.AllowCredentials,
		expose:      strings.Join(cfg.ExposeHeaders, ", "),
	}
	for _, o := range cfg.AllowOrigins {
		if o == "*" {
			p.anyOrigin = true
		} else {
			p.origins = append(p.origins, o)
		}
	}
	for _, h := range cfg.AllowHeaders {
		if h == "*" {
			p.anyHeader = true
		} else {
			p.headers = append(p.headers, h)
		}
	}
	switch {
	case cfg.MaxAge > 0:
		p.maxAge = strconv.FormatInt(int64(cfg.MaxAge/time.Second), 10)
	case cfg.MaxAge < 0:
		p.maxAge = "0"
	}
	return p
}

// allowed reports whether origin may read the responses.
func (p *corsPolicy) allowed(origin []byte) bool {
	if p.anyOrigin {
		return true
	}
	for _, o := range p.origins {
		if ascii.EqualFold(origin, o) {
			return true
		}
	}
	return false
}

// varyOrigin adds "Vary: Origin" unless any origin is allowed without
// credentials (the answer is then the same for every Origin).
func (p *corsPolicy) varyOrigin(c *brisk.Ctx) {
	if !p.anyOrigin || p.credentials {
		c.Response.Header.Add("Vary", "Origin")
	}
}

// allowOrigin sets the fields of an actual request from origin.
func (p *corsPolicy) allowOrigin(c *brisk.Ctx, origin []byte) bool {
	h := &c.Response.Header
	wildcard := p.anyOrigin && !p.credentials
	p.varyOrigin(c)
	if !p.allowed(origin) {
		return false
	}
	if wildcard {
		h.Set("Access-Control-Allow-Origin", "*")
	} else {
		h.SetBytes(allowOriginName, origin)
	}
	if p.credentials {
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	if p.expose != "" {
		h.Set("Access-Control-Expose-Headers", p.expose)
	}
	return true
}

var allowOriginName = []byte("Access-Control-Allow-Origin")

// preflight answers a preflight request from origin.
func (p *corsPolicy) preflight(c *brisk.Ctx, origin []byte) {
	r := &c.Response
	r.SetStatusCode(204)
	r.SetBodyString("")
	r.Header.Add("Vary", "Access-Control-Request-Method, Access-Control-Request-Headers")
	method := c.Request.Header.Get("Access-Control-Request-Method")
	fields := c.Request.Header.Get("Access-Control-Request-Headers")
	if !p.methodAllowed(method) || !p.fieldsAllowed(fields) || !p.allowOrigin(c, origin) {
		r.Header.Del("Access-Control-Allow-Origin")
		r.Header.Del("Access-Control-Allow-Credentials")
		r.Header.Del("Access-Control-Expose-Headers")
		return
	}
	r.Header.Del("Access-Control-Expose-Headers") // for actual responses only
	r.Header.SetBytes(allowMethodsName, method)
	if len(fields) > 0 {
		r.Header.SetBytes(allowHeadersName, fields)
	}
	if p.maxAge != "" {
		r.Header.Set("Access-Control-Max-Age", p.maxAge)
	}
}

var (
	allowMethodsName = []byte("Access-Control-Allow-Methods")
	allowHeadersName = []byte("Access-Control-Allow-Headers")
)

// methodAllowed reports whether the method a preflight asks for is
// allowed: compared exactly (methods are case-sensitive, RFC 9110 §9.1).
func (p *corsPolicy) methodAllowed(m []byte) bool {
	for _, a := range p.methods {
		if string(m) == a {
			return true
		}
	}
	return false
}

// fieldsAllowed reports whether every field name in the comma-separated
// list a preflight asks for is allowed.
func (p *corsPolicy) fieldsAllowed(list []byte) bool {
	if p.anyHeader {
		return validList(list)
	}
	for len(list) > 0 {
		var name []byte
		name, list = nextListItem(list)
		if len(name) == 0 {
			continue
		}
		if !p.fieldAllowed(name) {
			return false
		}
	}
	return true
}

// fieldAllowed reports whether the field name is allowed. A browser
// lists a CORS-safelisted name (Content-Type, Accept, ...) only when its
// value is not safelisted (Content-Type: application/json), so it too
// must be in AllowHeaders (Fetch standard, CORS-preflight fetch).
func (p *corsPolicy) fieldAllowed(name []byte) bool {
	for _, h := range p.headers {
		if ascii.EqualFold(name, h) {
			return true
		}
	}
	return false
}

// validList reports whether list is a comma-separated list of tokens.
func validList(list []byte) bool {
	for len(list) > 0 {
		var name []byte
		name, list = nextListItem(list)
		if len(name) > 0 && !validToken(name) {
			return false
		}
	}
	return true
}

// nextListItem splits the first item off a comma-separated list,
// trimming spaces and tabs.
func nextListItem(list []byte) (item, rest []byte) {
	i := 0
	for i < len(list) && list[i] != ',' {
		i++
	}
	item = list[:i]
	if i < len(list) {
		rest = list[i+1:]
	}
	for len(item) > 0 && (item[0] == ' ' || item[0] == '\t') {
		item = item[1:]
	}
	for len(item) > 0 && (item[len(item)-1] == ' ' || item[len(item)-1] == '\t') {
		item = item[:len(item)-1]
	}
	return item, rest
}

// validToken reports whether b is a token (RFC 9110 §5.6.2).
func validToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, ch := range b {
		if ch <= ' ' || ch >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", ch) >= 0 {
			return false
		}
	}
	return true
}
