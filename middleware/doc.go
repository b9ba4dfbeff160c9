// Package middleware holds ready brisk.Middleware for services: request
// IDs (RequestID), recovery with a logged stack (Recovery), CORS with
// preflight (CORS), rate limiting by a token bucket per client (RateLimit),
// a deadline per request (Timeout), Basic authentication (BasicAuth), and
// an access log for Server.OnRequestDone and OnReject (AccessLog).
//
// Each wraps a brisk.Handler, so it works with router.Router.Use and
// Group, by hand (mw(h)), and around brisk.FromHTTP handlers. It sees
// the same Ctx on every protocol the Server speaks: HTTP/1.1, TLS, h2
// and h2c (through the HTTP/2 bridge of package h2), behind a PROXY
// header (Ctx.RemoteAddr and ClientIP are the client's) and before an
// upgrade (a handler that hijacks or upgrades leaves the connection to
// itself: middleware must not touch the response after that). Responses
// they generate (401, 429, 500, 503) go through Ctx.Error, so the
// Server's ErrorHandler shapes them.
//
// Unless its documentation says otherwise, a middleware adds no
// allocation per request.
package middleware
