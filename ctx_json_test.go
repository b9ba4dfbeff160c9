package brisk

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

type item struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// TestCtxJSON: Ctx.JSON sets the status, Content-Type and body, replacing
// a body set before; a HEAD gets no body; an unencodable value answers
// 500 through the ErrorHandler.
func TestCtxJSON(t *testing.T) {
	ts := startServer(t, "inmemory", &Server{
		ErrorHandler: func(c *Ctx, code int, err error) {
			c.Response.WriteString("hook: " + err.Error()[:13])
		},
		Handler: func(c *Ctx) {
			c.Response.SetBodyString("dropped")
			if string(c.Request.Path()) == "/bad" {
				c.JSON(200, make(chan int))
				return
			}
			c.JSON(201, &item{ID: 7, Name: "<b>"})
		},
	})
	c := ts.connect()
	resp, body := c.roundTrip(get("/"))
	want := `{"id":7,"name":"\u003cb\u003e"}` + "\n"
	if resp.StatusCode != 201 || body != want || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %q %q, want 201 %q application/json", resp.StatusCode, body, resp.Header.Get("Content-Type"), want)
	}
	resp, body = c.roundTrip("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.StatusCode != 201 || body != "" || resp.ContentLength != int64(len(want)) {
		t.Fatalf("HEAD: %d %q Content-Length %d", resp.StatusCode, body, resp.ContentLength)
	}
	resp, body = c.roundTrip(get("/bad"))
	if resp.StatusCode != 500 || body != "hook: json: unsuppo" {
		t.Fatalf("unencodable: %d %q", resp.StatusCode, body)
	}
}

// TestCtxJSONCodec: a JSONCodec's Append encodes into the body buffer
// itself and its Unmarshal decodes; an Append error drops what it
// appended.
func TestCtxJSONCodec(t *testing.T) {
	codec := &JSONCodec{
		Append: func(dst []byte, v any) ([]byte, error) {
			if v == nil {
				return append(dst, "partial"...), errors.New("nil value")
			}
			return append(dst, `"custom"`...), nil
		},
		Unmarshal: func(data []byte, v any) error {
			*v.(*string) = "decoded " + string(data)
			return nil
		},
	}
	ts := startServer(t, "inmemory", &Server{JSON: codec, Handler: func(c *Ctx) {
		var s string
		if c.DecodeJSON(&s, 0) != nil {
			return
		}
		if s == "decoded null" {
			c.JSON(200, nil)
			return
		}
		c.JSON(200, s)
	}})
	c := ts.connect()
	resp, body := c.roundTrip("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
	if resp.StatusCode != 200 || body != `"custom"` {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	resp, body = c.roundTrip("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\r\nnull")
	if resp.StatusCode != 500 || body != "Internal Server Error\n" {
		t.Fatalf("Append error: %d %q", resp.StatusCode, body)
	}
}

// TestDecodeJSON: the statuses and errors of Ctx.DecodeJSON, given to
// the ErrorHandler, and whether the connection stays open.
func TestDecodeJSON(t *testing.T) {
	chunked := func(body string) string {
		return "Transfer-Encoding: chunked\r\n\r\n" + strconv.FormatInt(int64(len(body)), 16) + "\r\n" + body + "\r\n0\r\n\r\n"
	}
	length := func(body string) string {
		return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	cases := []struct {
		name, ct, framing string
		status            int
		is                error
		open              bool
	}{
		{"ok", "application/json", length(`{"id":1,"name":"a"}`), 200, nil, true},
		{"ok_params", "Application/JSON ; charset=utf-8", length(`{"id":1}`), 200, nil, true},
		{"ok_suffix", "application/problem+json", length(`{"id":1}`), 200, nil, true},
		{"ok_chunked", "application/json", chunked(`{"id":1}`), 200, nil, true},
		{"no_type", "", length(`{"id":1}`), 415, ErrNotJSON, true},
		{"text_type", "text/plain", length(`{"id":1}`), 415, ErrNotJSON, true},
		{"json_prefix_only", "application/jsonx", length(`{}`), 415, ErrNotJSON, true},
		{"plus_json_alone", "application/+json", length(`{}`), 415, ErrNotJSON, true},
		{"length_over_limit", "application/json", length(`{"name":"` + strings.Repeat("a", 40) + `"}`), 413, ErrBodyTooLarge, true},
		{"chunked_over_limit", "application/json", chunked(`{"name":"` + strings.Repeat("a", 40) + `"}`), 413, ErrBodyTooLarge, false},
		{"gzip", "application/json", "Content-Encoding: gzip\r\n" + length("\x1f\x8b\x08\x00"), 415, ErrUnsupportedEncoding, true},
		{"identity_then_br", "application/json", "Content-Encoding: identity\r\nContent-Encoding: br\r\n" + length(`{}`), 415, ErrUnsupportedEncoding, true},
		{"ok_identity", "application/json", "Content-Encoding: Identity, \r\n" + length(`{"id":1}`), 200, nil, true},
		{"syntax", "application/json", length(`{"id":`), 400, ErrInvalidJSON, true},
		{"empty", "application/json", length(``), 400, ErrInvalidJSON, true},
		{"type", "application/json", length(`{"id":"x"}`), 400, ErrInvalidJSON, true},
		{"trailing", "application/json", length(`{} {}`), 400, ErrInvalidJSON, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan error, 1)
			ts := startServer(t, "inmemory", &Server{
				ErrorHandler: func(c *Ctx, code int, err error) {
					c.JSON(code, map[string]string{"error": "shaped"})
				},
				Handler: func(c *Ctx) {
					var it item
					err := c.DecodeJSON(&it, 32)
					got <- err
					if err == nil {
						c.JSON(200, it)
					}
				},
			})
			c := ts.connect()
			req := "POST /items HTTP/1.1\r\nHost: x\r\n"
			if tc.ct != "" {
				req += "Content-Type: " + tc.ct + "\r\n"
			}
			resp, body := c.roundTrip(req + tc.framing)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d (%q)", resp.StatusCode, tc.status, body)
			}
			if err := <-got; tc.is == nil && err != nil || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			// RFC 9110 §12.5.3: Accept-Encoding in a 415 for a content
			// coding, and only then.
			if ae := resp.Header.Get("Accept-Encoding"); (ae == "identity") != errors.Is(tc.is, ErrUnsupportedEncoding) || ae != "" && ae != "identity" {
				t.Errorf("Accept-Encoding %q", ae)
			}
			if tc.status != 200 && body != `{"error":"shaped"}`+"\n" {
				t.Errorf("body %q, want the ErrorHandler's", body)
			}
			if tc.open {
				c.expectOpen()
			} else {
				c.expectClosed()
			}
		})
	}
}

// TestDecodeJSONErrorAs: the decoder's own error is wrapped with
// ErrInvalidJSON, and a Ctx without a server answers 400 too.
func TestDecodeJSONErrorAs(t *testing.T) {
	var c Ctx
	c.Request.Header.Set("Content-Type", "application/json")
	c.Request.SetBodyString(`{"id":`)
	err := c.DecodeJSON(new(item), 0)
	var se *json.SyntaxError
	if !errors.Is(err, ErrInvalidJSON) || !errors.As(err, &se) {
		t.Fatalf("error %v, want ErrInvalidJSON and a *json.SyntaxError", err)
	}
	if c.Response.StatusCode() != 400 {
		t.Errorf("status %d, want 400", c.Response.StatusCode())
	}
}
