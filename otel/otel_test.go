package otel

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	"github.com/brisk-http/brisk/h2"
	"github.com/brisk-http/brisk/router"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestMiddleware: over HTTP/1.1 and h2 (TLS, ALPN), a routed request
// gets a server span named by its route, child of the caller's
// traceparent, with the semantic-convention attributes; a 500 marks the
// span Error with error.type; the duration histogram and active
// requests are recorded.
func TestMiddleware(t *testing.T) {
	for _, proto := range []string{"1.1", "2"} {
		t.Run(proto, func(t *testing.T) {
			spans := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
			reader := sdkmetric.NewManualReader()
			mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
			r := router.New()
			r.Use(Middleware(Config{TracerProvider: tp, MeterProvider: mp, Propagator: propagation.TraceContext{}}))
			var handlerSpan trace.SpanContext
			r.Handle("GET /users/{id}", func(c *brisk.Ctx) {
				handlerSpan = trace.SpanContextFromContext(c.Context())
				c.Response.SetBodyString("user")
			})
			r.Handle("GET /fail", func(c *brisk.Ctx) { c.Error(503, errors.New("down")) })
			client, base := serve(t, &brisk.Server{Handler: r.Serve}, proto == "2")

			req, _ := http.NewRequest("GET", base+"/users/7?x=1", nil)
			req.Header.Set("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
			req.Header.Set("User-Agent", "probe/1")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			resp, err = client.Get(base + "/fail")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()

			ended := spans.Ended()
			if len(ended) != 2 {
				t.Fatalf("%d spans, want 2", len(ended))
			}
			s := ended[0]
			if s.Name() != "GET /users/{id}" || s.SpanKind() != trace.SpanKindServer ||
				s.Parent().TraceID().String() != "0af7651916cd43dd8448eb211c80319c" || handlerSpan.SpanID() != s.SpanContext().SpanID() {
				t.Errorf("span %q kind %v parent %v, handler saw %v", s.Name(), s.SpanKind(), s.Parent(), handlerSpan.SpanID())
			}
			want := map[attribute.Key]string{
				"http.request.method": "GET", "url.path": "/users/7", "url.query": "x=1", "url.scheme": map[string]string{"1.1": "http", "2": "https"}[proto],
				"network.protocol.version": proto, "server.address": "127.0.0.1", "client.address": "127.0.0.1",
				"user_agent.original": "probe/1", "http.response.status_code": "200", "http.route": "/users/{id}",
			}
			got := map[attribute.Key]string{}
			for _, kv := range s.Attributes() {
				got[kv.Key] = kv.Value.String()
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			if f := ended[1]; f.Status().Code != codes.Error || f.Name() != "GET /fail" {
				t.Errorf("failed span %q status %v", f.Name(), f.Status())
			}

			var rm metricdata.ResourceMetrics
			if err := reader.Collect(context.Background(), &rm); err != nil {
				t.Fatal(err)
			}
			found := map[string]bool{}
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					found[m.Name] = true
					if h, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == "http.server.request.duration" {
						var n uint64
						for _, dp := range h.DataPoints {
							n += dp.Count
						}
						if n != 2 || m.Unit != "s" {
							t.Errorf("duration: %d points, unit %q", n, m.Unit)
						}
					}
				}
			}
			if !found["http.server.request.duration"] || !found["http.server.active_requests"] {
				t.Errorf("metrics %v", found)
			}
		})
	}
}

// TestMethodName: unknown methods are "_OTHER".
func TestMethodName(t *testing.T) {
	for in, want := range map[string]string{"GET": "GET", "PATCH": "PATCH", "get": "_OTHER", "FOO": "_OTHER"} {
		if got := methodName([]byte(in)); got != want {
			t.Errorf("methodName(%q) = %q, want %q", in, got, want)
		}
	}
}

// serve serves srv on loopback, with TLS and h2 when h2on, until the
// test ends; it returns a client for that protocol and the base URL.
func serve(t *testing.T, srv *brisk.Server, h2on bool) (*http.Client, string) {
	srv.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	base := "http://" + ln.Addr().String()
	done := make(chan error, 1)
	if h2on {
		certs := brisktest.NewTLSCerts()
		srv.TLSConfig = certs.ServerConfig()
		if err := h2.Configure(srv, h2.Config{}); err != nil {
			t.Fatal(err)
		}
		tr.TLSClientConfig, tr.ForceAttemptHTTP2 = certs.ClientConfig(), true
		base = "https://" + ln.Addr().String()
		go func() { done <- srv.ServeTLS(ln, "", "") }()
	} else {
		go func() { done <- srv.Serve(ln) }()
	}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-done
	})
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}, base
}

// TestMiddlewarePanic: a handler that panics is answered 500 by the
// server (or a Recovery outside this middleware); its span and duration
// say 500 and Error, not the 200 of the response it had not set.
func TestMiddlewarePanic(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	r := router.New()
	r.Use(Middleware(Config{TracerProvider: tp, MeterProvider: mp}))
	r.Handle("GET /panic", func(c *brisk.Ctx) { panic("boom") })
	client, base := serve(t, &brisk.Server{Handler: r.Serve}, false)
	resp, err := client.Get(base + "/panic")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ended := spans.Ended()
	if resp.StatusCode != 500 || len(ended) != 1 {
		t.Fatalf("status %d, %d spans; want 500 and 1", resp.StatusCode, len(ended))
	}
	s := ended[0]
	got := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		got[kv.Key] = kv.Value.String()
	}
	if s.Status().Code != codes.Error || got["http.response.status_code"] != "500" || got["error.type"] == "" {
		t.Errorf("span status %v, http.response.status_code %q, error.type %q; want Error, 500, set",
			s.Status(), got["http.response.status_code"], got["error.type"])
	}
}
