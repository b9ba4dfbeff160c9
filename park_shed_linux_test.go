package brisk

import (
	"reflect"
	"testing"
	"time"
)

// shedConns returns how many parked connections of s have shed their conn.
func shedConns(s *Server) int {
	p := theParker.p.Load()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, sl := range p.slots {
		if sl.srv == s && sl.c == nil {
			n++
		}
	}
	return n
}

// TestParkShedServesAgain: a connection parked through a sweep sheds its
// conn and is served again by another, carrying its request count
// (MaxRequestsPerConn) and write deadline state.
func TestParkShedServesAgain(t *testing.T) {
	s := &Server{MaxRequestsPerConn: 3, WriteTimeout: 5 * time.Second}
	ts := startParking(t, s)
	c := ts.connect()
	for i, wantClose := range []bool{false, false, true} {
		if i > 0 {
			waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
			p := theParker.p.Load()
			p.sweep(time.Now()) // marks it old
			p.sweep(time.Now()) // sheds it
			if n := shedConns(s); n != 1 {
				t.Fatalf("request %d: %d connections shed, want 1", i+1, n)
			}
		}
		resp, body := c.roundTrip(get("/x"))
		if body != "/x" || resp.Close != wantClose {
			t.Fatalf("request %d: %q, Connection: close %v, want %v", i+1, body, resp.Close, wantClose)
		}
	}
	c.expectClosed()
}

// TestParkShedShutdown: Shutdown closes shed connections too.
func TestParkShedShutdown(t *testing.T) {
	s := &Server{}
	ts := startParking(t, s)
	c := ts.connect()
	c.roundTrip(get("/"))
	waitUntil(t, "parked", func() bool { return parkedConns(s) == 1 })
	p := theParker.p.Load()
	p.sweep(time.Now())
	p.sweep(time.Now())
	if shedConns(s) != 1 {
		t.Fatal("not shed")
	}
	c.nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	go s.Shutdown(t.Context())
	if _, err := c.br.ReadByte(); err == nil || isTimeout(err) {
		t.Fatalf("read %v, want the connection closed by Shutdown", err)
	}
}

// TestConnIdleCarriesState places every field of conn: carried by a shed
// connection (connIdle), or set anew for each connection, request or wait.
// A new field fails here until it is placed.
func TestConnIdleCarriesState(t *testing.T) {
	carried := map[string]bool{"nc": true, "nreq": true, "wdeadline": true, "writes": true, "wclock": true,
		"proxy": true, "connStats": true}
	renewed := map[string]string{
		"srv": "per conn object", "lim": "per conn object", "readable": "per conn object",
		"raw":   "attach",
		"state": "attach; resume moves it to active",
		"rbuf":  "nil while parked", "wbuf": "nil while parked",
		"in":       "empty and without storage while parked; attach discards",
		"tls":      "nil: TLS connections are not parked",
		"hijacked": "false: a hijacked connection is not parked; attach clears it",
		"werr":     "nil: park only follows a successful flush",
		"deadline": "0: park clears the read deadline; attach sets 0",
		"ctx":      "reset per request (resetExchange, beginRequest)", "body": "reset per request",
		"watch":     "not running: CancelOnClientClose connections are not parked",
		"keepAlive": "per request", "headTimer": "per head",
		"waited": "per wait", "peek": "per wait",
		"proxyStore": "storage of proxy, which is carried: recycle drops it",
		"done":       "per conn object; empty while parked: the flush before park delivers it",
	}
	typ := reflect.TypeFor[conn]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if !carried[name] && renewed[name] == "" {
			t.Errorf("conn.%s is neither carried by connIdle nor listed as renewed: place it", name)
		}
	}
	idle := reflect.TypeFor[connIdle]()
	for name := range carried {
		if _, ok := idle.FieldByName(name); !ok {
			t.Errorf("connIdle has no field %s", name)
		}
	}
}
