// Package otel instruments brisk handlers with OpenTelemetry
// (go.opentelemetry.io/otel): a server span per request and the HTTP
// server metrics, both with the HTTP semantic conventions (semconv
// v1.43.0). It is a module of its own, so that programs that do not use
// it do not link OpenTelemetry.
//
// The middleware works on every protocol the Server speaks: HTTP/1.1,
// TLS, h2 and h2c (through the HTTP/2 bridge of package h2), behind a
// PROXY header (client.address is the client's) and around
// brisk.FromHTTP handlers. A request a handler hijacks or upgrades ends
// its span when the handler returns.
package otel

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/brisk-http/brisk"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/brisk-http/brisk/otel"

// Config configures Middleware. Each nil field means OpenTelemetry's
// global one (otel.GetTracerProvider, GetMeterProvider,
// GetTextMapPropagator).
type Config struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	Propagator     propagation.TextMapPropagator
}

// Middleware returns a middleware that, for each request:
//
//   - extracts the caller's trace context from the request fields
//     (Propagator; W3C traceparent with the usual global setup) and
//     starts a server span, named "{method} {route}" (the route being the
//     path of the pattern, "/users/{id}") once a router has set Ctx.Pattern (when the middleware wraps a Router, after it
//     returns), else "{method}"; the method is "_OTHER" when not one of
//     RFC 9110's or PATCH. It sets http.request.method, url.path,
//     url.query (when present), url.scheme, network.protocol.version,
//     server.address, client.address, user_agent.original,
//     http.response.status_code, http.route and, for 5xx, error.type
//     with the span status Error (4xx leave a server span's status
//     unset, per the conventions). Ctx.Context carries the span
//     (Ctx.SetContext) for the handler's own spans.
//   - records http.server.request.duration (seconds, a histogram) and
//     http.server.active_requests, with the method, scheme, protocol
//     version, status code, route and error.type.
//
// The duration ends when the handler returns, before the response is
// written; Server.OnRequestDone has the time to the last byte. A handler
// that panics is recorded as a 500 with error.type "500" (the answer of
// the server or of a Recovery outside this middleware), and the panic
// goes on.
func Middleware(cfg Config) brisk.Middleware {
	in := newInstruments(cfg)
	return func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) { in.serve(c, next) }
	}
}

// instruments are a Middleware's tracer and meters.
type instruments struct {
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	duration   metric.Float64Histogram
	active     metric.Int64UpDownCounter
}

func newInstruments(cfg Config) *instruments {
	tp, mp, prop := cfg.TracerProvider, cfg.MeterProvider, cfg.Propagator
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if prop == nil {
		prop = otel.GetTextMapPropagator()
	}
	meter := mp.Meter(ScopeName)
	in := &instruments{tracer: tp.Tracer(ScopeName), propagator: prop}
	var err error
	in.duration, err = meter.Float64Histogram("http.server.request.duration",
		metric.WithUnit("s"), metric.WithDescription("Duration of HTTP server requests."),
		metric.WithExplicitBucketBoundaries(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10))
	if err != nil {
		otel.Handle(err)
	}
	in.active, err = meter.Int64UpDownCounter("http.server.active_requests",
		metric.WithUnit("{request}"), metric.WithDescription("Number of active HTTP server requests."))
	if err != nil {
		otel.Handle(err)
	}
	return in
}

// serve runs next for c inside a span, and records the metrics.
func (in *instruments) serve(c *brisk.Ctx, next brisk.Handler) {
	start := time.Now()
	method := methodName(c.Request.Method())
	scheme := "http"
	if c.TLS() != nil {
		scheme = "https"
	}
	version := protocolVersion(c)
	base := []attribute.KeyValue{
		semconv.HTTPRequestMethodKey.String(method),
		semconv.URLSchemeKey.String(scheme),
		semconv.NetworkProtocolVersionKey.String(version),
	}
	ctx := in.propagator.Extract(c.Context(), headerCarrier{&c.Request.Header})
	ctx, span := in.tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(base...), trace.WithAttributes(requestAttributes(c)...))
	defer span.End()
	in.active.Add(ctx, 1, metric.WithAttributes(base...))
	c.SetContext(ctx)
	returned := false
	defer func() {
		status := c.Response.StatusCode()
		if !returned {
			status = 500 // a panic: the server or a Recovery answers 500
		}
		attrs := append(base, semconv.HTTPResponseStatusCodeKey.Int(status))
		if route := routePath(c.Pattern()); route != "" {
			attrs = append(attrs, semconv.HTTPRouteKey.String(route))
			span.SetName(method + " " + route)
		}
		if status >= 500 {
			attrs = append(attrs, semconv.ErrorTypeKey.String(strconv.Itoa(status)))
			span.SetStatus(codes.Error, "")
		}
		span.SetAttributes(attrs[len(base):]...)
		in.active.Add(context.WithoutCancel(ctx), -1, metric.WithAttributes(base...))
		in.duration.Record(context.WithoutCancel(ctx), time.Since(start).Seconds(), metric.WithAttributes(attrs...))
	}()
	next(c)
	returned = true
}

// requestAttributes are the span attributes of the request that the
// metrics do not carry (high cardinality).
func requestAttributes(c *brisk.Ctx) []attribute.KeyValue {
	attrs := []attribute.KeyValue{
		semconv.URLPath(string(c.Request.Path())),
		semconv.ServerAddress(string(hostOnly(c.Request.Host()))),
	}
	if q := c.Request.Query(); len(q) > 0 {
		attrs = append(attrs, semconv.URLQuery(string(q)))
	}
	if ip := c.ClientIP(); ip.IsValid() {
		attrs = append(attrs, semconv.ClientAddress(ip.String()))
	}
	if ua := c.Request.Header.Get("User-Agent"); ua != nil {
		attrs = append(attrs, semconv.UserAgentOriginal(string(ua)))
	}
	return attrs
}

// methodName returns m when it is a method the conventions list (RFC
// 9110 §9 and PATCH), else "_OTHER", which keeps the cardinality of the
// attribute bounded.
func methodName(m []byte) string {
	switch string(m) {
	case "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH":
		return string(m)
	}
	return "_OTHER"
}

// protocolVersion returns the HTTP version of c's request as the
// semantic conventions spell network.protocol.version: "2" for HTTP/2
// (h2 or h2c), "3" for HTTP/3, else "1.1" or "1.0".
func protocolVersion(c *brisk.Ctx) string {
	return semconvVersion(c.Request.Proto())
}

// semconvVersion maps a request's protocol ("HTTP/1.1") to its
// network.protocol.version: the version, with ".0" dropped from major
// versions 2 and 3.
func semconvVersion(proto string) string {
	switch proto {
	case "HTTP/2.0":
		return "2"
	case "HTTP/3.0":
		return "3"
	}
	return strings.TrimPrefix(proto, "HTTP/")
}

// routePath returns the path template of a router pattern
// "[METHOD ][HOST]/PATH" (http.route: "/users/{id}"), "" for none.
func routePath(pattern string) string {
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '/' {
			return pattern[i:]
		}
	}
	return ""
}

// hostOnly returns host without its port.
func hostOnly(host []byte) []byte {
	for i := len(host) - 1; i >= 0; i-- {
		switch host[i] {
		case ':':
			return host[:i]
		case ']':
			return host
		}
	}
	return host
}

// headerCarrier reads and writes brisk header fields for a propagator.
type headerCarrier struct{ h *brisk.Header }

func (hc headerCarrier) Get(key string) string { return string(hc.h.Get(key)) }
func (hc headerCarrier) Set(key, value string) { hc.h.Set(key, value) }
func (hc headerCarrier) Keys() []string {
	var keys []string
	for name := range hc.h.All() {
		keys = append(keys, string(name))
	}
	return keys
}
