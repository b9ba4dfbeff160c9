package brisk

import (
	"errors"
	"io"
	"testing"
)

// TestSendInterim: interim responses leave before the final response, in
// order, with the handler's fields but no framing or Connection field.
func TestSendInterim(t *testing.T) {
	forTransports(t, func(t *testing.T, tr string) {
		ts := startServer(t, tr, &Server{Handler: func(c *Ctx) {
			var h Header
			h.Set("Link", "</style.css>; rel=preload; as=style")
			h.Set("Content-Length", "5")
			h.Set("Connection", "close")
			if err := c.SendInterim(103, &h); err != nil {
				t.Errorf("SendInterim(103): %v", err)
			}
			if err := c.SendInterim(102, nil); err != nil {
				t.Errorf("SendInterim(102): %v", err)
			}
			c.Response.SetBodyString("ok")
		}})
		c := ts.connect()
		c.sendSync(get("/") + "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		final := "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 2\r\n"
		interims := "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n" +
			"HTTP/1.1 102 \r\n\r\n"
		want := interims + final + "\r\nok" + interims + final + "Connection: close\r\n\r\nok"
		if got := c.readUntilClose(); got != want {
			t.Fatalf("got\n%q\nwant\n%q", got, want)
		}
	})
}

// TestSendInterimRefused: the codes, fields and moments SendInterim
// refuses, each with its error and nothing on the wire; an HTTP/1.0
// request gets no interim response at all.
func TestSendInterimRefused(t *testing.T) {
	var bad Header
	bad.Set("Bad Name", "v")
	cases := []struct {
		name  string
		code  int
		h     *Header
		start bool // start the final response first
		want  error
	}{
		{"switching_protocols", 101, nil, false, ErrInterimStatus},
		{"below_1xx", 99, nil, false, ErrInterimStatus},
		{"final_code", 200, nil, false, ErrInterimStatus},
		{"invalid_field", 103, &bad, false, ErrInterimField},
		{"after_start", 103, nil, true, ErrResponseStarted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errc := make(chan error, 1)
			ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
				if tc.start {
					c.BodyWriter().Flush()
				}
				errc <- c.SendInterim(tc.code, tc.h)
			}})
			c := ts.connect()
			c.sendSync("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			got := c.readUntilClose()
			if err := <-errc; !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if tc.start {
				return
			}
			if want := "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"; got != want {
				t.Errorf("got\n%q\nwant\n%q", got, want)
			}
		})
	}
	t.Run("http10", func(t *testing.T) {
		errc := make(chan error, 1)
		ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) { errc <- c.SendInterim(103, nil) }})
		c := ts.connect()
		c.sendSync("GET / HTTP/1.0\r\n\r\n")
		got := c.readUntilClose()
		if err := <-errc; err != nil {
			t.Errorf("error %v, want nil", err)
		}
		if want := "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"; got != want {
			t.Errorf("got\n%q\nwant\n%q", got, want)
		}
	})
}

// TestSendInterimHijacked: once the handler has taken the connection
// (Hijack, Upgrade), SendInterim fails with ErrHijacked and writes
// nothing to the connection, which is no longer the server's.
func TestSendInterimHijacked(t *testing.T) {
	errc := make(chan error, 1)
	ts := startServer(t, "inmemory", &Server{Handler: func(c *Ctx) {
		nc, _, err := c.Hijack()
		if err != nil {
			errc <- err
			return
		}
		errc <- c.SendInterim(103, nil)
		io.WriteString(nc, "mine")
		nc.Close()
	}})
	c := ts.connect()
	c.sendSync("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	got := c.readUntilClose()
	if err := <-errc; !errors.Is(err, ErrHijacked) {
		t.Errorf("error %v, want %v", err, ErrHijacked)
	}
	if got != "mine" {
		t.Errorf("got %q, want only the handler's \"mine\"", got)
	}
}
