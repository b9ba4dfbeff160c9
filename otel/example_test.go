package otel_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/brisktest"
	briskotel "github.com/brisk-http/brisk/otel"
	"github.com/brisk-http/brisk/router"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// ExampleMiddleware traces a Router's requests: the span is named by
// the route. In a service, leave TracerProvider nil and set up the
// global one with an exporter (OTLP).
func ExampleMiddleware() {
	spans := tracetest.NewSpanRecorder()
	r := router.New()
	r.Use(briskotel.Middleware(briskotel.Config{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
	}))
	r.Handle("GET /users/{id}", func(c *brisk.Ctx) { c.Response.SetBodyString("user") })

	srv := &brisk.Server{Handler: r.Serve}
	ln := brisktest.NewListener()
	go srv.Serve(ln)
	conn, _ := ln.Dial()
	io.WriteString(conn, "GET /users/7 HTTP/1.1\r\nHost: example.com\r\n\r\n")
	resp, _ := http.ReadResponse(bufio.NewReader(conn), nil)
	resp.Body.Close()
	conn.Close()
	srv.Shutdown(context.Background())

	for _, s := range spans.Ended() {
		fmt.Println(s.Name(), s.SpanKind())
	}
	// Output:
	// GET /users/{id} server
}
