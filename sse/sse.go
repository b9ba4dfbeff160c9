// Package sse streams Server-Sent Events (WHATWG HTML §9.2) from a brisk
// handler: New starts a text/event-stream response, Send writes and
// flushes one event, Comment a comment line, and Serve relays events from
// a channel with keep-alive comments in between until the client goes
// away or the server shuts down.
//
// # Protocols and the client going away
//
// HTTP/1.1 (and TLS, and behind PROXY): the stream is chunked, each event
// flushed to the connection as it is sent. Client-close detection goes
// through brisk.Ctx.Context: by default the context is cancelled as
// soon as the client closes the connection; with
// brisk.Server.IgnoreClientClose, only by Shutdown, and a client that
// left is noticed when a write fails (the next event or keep-alive
// comment). HTTP/1.0: the stream is delimited by the connection's close.
// HTTP/2 and h2c (package h2): each flush is a DATA frame; by default the
// context is cancelled when the client resets the stream or the
// connection ends, with IgnoreClientClose a write fails then. Upgraded connections do not apply (an event
// stream is a response). brisk.Server.Shutdown and Drain cancel the
// context: Serve returns, and the response ends cleanly (the client's
// EventSource reconnects elsewhere, sending Last-Event-ID).
//
// The response carries "Cache-Control: no-cache" and "no-transform", so
// that neither package compress nor a proxy compresses or buffers it, and
// "X-Accel-Buffering: no" for nginx.
package sse

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/brisk-http/brisk"
)

// DefaultKeepAlive is Options.KeepAlive's zero value: below the idle
// timeouts of common proxies (60 s for nginx's proxy_read_timeout).
const DefaultKeepAlive = 15 * time.Second

// ErrField is returned by Send for an Event whose ID or Event contains
// CR or LF (they would end the field early: the stream grammar has no
// escape), or whose ID contains NUL (the client ignores such an id).
var ErrField = errors.New("sse: CR, LF or NUL in an event's id, or CR or LF in its event type")

// Options configure New. A nil *Options means the defaults.
type Options struct {
	// KeepAlive is the interval of the comment lines Serve sends while no
	// event comes, so that proxies and clients see the connection alive.
	// Zero means DefaultKeepAlive (15 s); negative means none.
	KeepAlive time.Duration
}

// Event is one event (WHATWG HTML §9.2.6). Its zero fields are omitted.
type Event struct {
	// ID sets the client's last event ID, sent back in Last-Event-ID when
	// it reconnects. It must not contain CR, LF or NUL.
	ID string
	// Event is the event type (the listener name; "message" when empty).
	// It must not contain CR or LF.
	Event string
	// Data is the event's data; each line (ended by CRLF, LF or CR) goes
	// in a data field of its own and the client joins them with LF. An
	// event with neither Data nor Event carries no data field and is not
	// dispatched (it only sets ID or Retry).
	Data string
	// Retry, when positive, is the client's reconnection delay, sent in
	// whole milliseconds.
	Retry time.Duration
}

// Stream is an event stream response. It is valid until the handler
// returns; use it from the handler's goroutine only.
type Stream struct {
	c         *brisk.Ctx
	w         *brisk.BodyWriter
	buf       []byte
	lastID    string
	keepAlive time.Duration
	head      bool // a HEAD request: no body
}

// New starts an event stream: status 200, "Content-Type:
// text/event-stream", "Cache-Control: no-cache, no-transform",
// "X-Accel-Buffering: no", and the head flushed at once, so the client's
// EventSource opens before the first event. Fields the handler set before
// stay (Set-Cookie, CORS ones); call it before writing any of the body.
// It fails with the error flushing the head (the client is gone). For a
// HEAD request the head is all that is sent: Send and Comment write
// nothing and Serve returns at once.
func New(c *brisk.Ctx, opts *Options) (*Stream, error) {
	s := &Stream{c: c, w: c.BodyWriter(), keepAlive: DefaultKeepAlive}
	if opts != nil && opts.KeepAlive != 0 {
		s.keepAlive = max(opts.KeepAlive, 0)
	}
	s.lastID = string(c.Request.Header.Get("Last-Event-ID"))
	s.head = string(c.Request.Method()) == "HEAD"
	r := &c.Response
	r.SetStatusCode(200)
	r.Header.Set("Content-Type", "text/event-stream")
	r.Header.Set("Cache-Control", "no-cache, no-transform")
	r.Header.Set("X-Accel-Buffering", "no")
	r.Header.Del("Content-Length")
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	return s, nil
}

// LastEventID returns the request's Last-Event-ID field: the ID of the
// last event the client received before reconnecting, "" on a first
// connection.
func (s *Stream) LastEventID() string { return s.lastID }

// Send writes e and flushes it to the client. It fails with ErrField
// (nothing written) or the write's error (the client is gone, or
// brisk.Server.WriteTimeout passed).
func (s *Stream) Send(e Event) error {
	b, err := appendEvent(s.buf[:0], e)
	if err != nil {
		return err
	}
	s.buf = b
	return s.write()
}

// appendEvent appends e as the stream encodes it (WHATWG HTML §9.2.5),
// blank line included.
func appendEvent(b []byte, e Event) ([]byte, error) {
	if strings.ContainsAny(e.ID, "\r\n\x00") || strings.ContainsAny(e.Event, "\r\n") {
		return b, ErrField
	}
	if e.ID != "" {
		b = append(append(append(b, "id: "...), e.ID...), '\n')
	}
	if e.Event != "" {
		b = append(append(append(b, "event: "...), e.Event...), '\n')
	}
	if e.Retry > 0 {
		b = strconv.AppendInt(append(b, "retry: "...), max(e.Retry.Milliseconds(), 1), 10)
		b = append(b, '\n')
	}
	if e.Data != "" || e.Event != "" {
		b = appendLines(b, "data: ", e.Data)
	}
	return append(b, '\n'), nil
}

// Comment writes text as comment lines (each line of text behind a
// colon; the client ignores them) and flushes them.
func (s *Stream) Comment(text string) error {
	s.buf = append(appendLines(s.buf[:0], ":", text), '\n')
	return s.write()
}

// Serve sends the events received from events, and a keep-alive comment
// after each Options.KeepAlive without one, until events is closed (it
// returns nil), the request's context is done (the client went away, see
// the package doc, or the server shuts down: it returns the context's
// error) or a write fails (its error).
func (s *Stream) Serve(events <-chan Event) error {
	if s.head {
		return nil
	}
	var tick <-chan time.Time
	var t *time.Timer
	if s.keepAlive > 0 {
		t = time.NewTimer(s.keepAlive)
		defer t.Stop()
		tick = t.C
	}
	done := s.c.Context().Done()
	for {
		var err error
		select {
		case e, ok := <-events:
			if !ok {
				return nil
			}
			err = s.Send(e)
		case <-tick:
			err = s.Comment("")
		case <-done:
			return s.c.Context().Err()
		}
		if err != nil {
			return err
		}
		if t != nil {
			t.Reset(s.keepAlive)
		}
	}
}

// write sends s.buf and flushes.
func (s *Stream) write() error {
	if _, err := s.w.Write(s.buf); err != nil {
		return err
	}
	return s.w.Flush()
}

// appendLines appends one "prefix line\n" per line of text (split at
// CRLF, LF and CR; one empty line for empty text).
func appendLines(b []byte, prefix, text string) []byte {
	for {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			return append(append(append(b, prefix...), text...), '\n')
		}
		b = append(append(append(b, prefix...), text[:i]...), '\n')
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		text = text[i+1:]
	}
}
