package conformance

import (
	"errors"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"time"
)

// Options controls how a case is sent and how long the answer is awaited.
// DefaultOptions gives the probe's defaults.
type Options struct {
	// Split writes the input in pieces of 1 to 4 bytes (pieces scaled up
	// for inputs over 1000 bytes, to stay near a thousand writes), in an
	// order fixed by the case id so runs repeat.
	Split bool
	// Pause is the sleep between split pieces (probe default 1 ms).
	Pause time.Duration
	// Hold is the sleep at each pause_at offset of a case (default 150 ms).
	Hold time.Duration
	// Idle ends the read once the server has been silent this long
	// (default 500 ms).
	Idle time.Duration
	// Overall ends the read this long after the last write (default 3 s).
	Overall time.Duration
	// Dial opens the connection for a case (a TLS client, say). Nil means
	// TCP, within 2 s.
	Dial func(addr string) (net.Conn, error)
}

// DefaultOptions returns the probe's default options, split or whole.
func DefaultOptions(split bool) Options {
	return Options{
		Split:   split,
		Pause:   time.Millisecond,
		Hold:    150 * time.Millisecond,
		Idle:    500 * time.Millisecond,
		Overall: 3 * time.Second,
	}
}

// Observation is what came back on one connection.
type Observation struct {
	Data     []byte // every byte the server sent; owned by the Observation
	Closed   bool   // the server closed (EOF or reset) before we gave up
	Reset    bool   // the close was a reset
	WriteErr error  // the server stopped accepting our bytes early
	DialErr  error
}

// piece is one write and the pause that follows it.
type piece struct {
	data  []byte
	pause time.Duration
}

// Exchange sends one case on a fresh connection to addr (host:port),
// opened by o.Dial, and collects the answer.
func Exchange(c *Case, addr string, o Options) Observation {
	dial := o.Dial
	if dial == nil {
		dial = func(addr string) (net.Conn, error) { return net.DialTimeout("tcp", addr, 2*time.Second) }
	}
	conn, err := dial(addr)
	if err != nil {
		return Observation{DialErr: err}
	}
	defer conn.Close()
	var obs Observation
	obs.WriteErr = writePieces(conn, pieces(c, o))
	obs.Data, obs.Closed, obs.Reset = readUntilQuiet(conn, o)
	return obs
}

// writePieces writes each piece and sleeps after it. It stops at the first
// error: a server that already answered and closed is not a probe failure.
func writePieces(conn net.Conn, ps []piece) error {
	for _, p := range ps {
		conn.SetWriteDeadline(time.Now().Add(2 * time.Second))
		if _, err := conn.Write(p.data); err != nil {
			return err
		}
		if p.pause > 0 {
			time.Sleep(p.pause)
		}
	}
	return nil
}

// readUntilQuiet reads until the server closes, or stays silent for o.Idle,
// or o.Overall has passed.
func readUntilQuiet(conn net.Conn, o Options) (data []byte, closed, reset bool) {
	end := time.Now().Add(o.Overall)
	buf := make([]byte, 64<<10)
	for {
		deadline := time.Now().Add(o.Idle)
		if deadline.After(end) {
			deadline = end
		}
		conn.SetReadDeadline(deadline)
		n, err := conn.Read(buf)
		data = append(data, buf[:n]...)
		switch {
		case err == nil:
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			return data, false, false
		case errors.Is(err, io.EOF):
			return data, true, false
		default: // connection reset or similar: the server is gone
			return data, true, true
		}
	}
}

// pieces cuts the input at the case's pause_at offsets and, in split mode,
// into small pieces as well.
func pieces(c *Case, o Options) []piece {
	in := c.Input()
	var rng *rand.Rand
	scale := 1
	if o.Split {
		rng = rand.New(rand.NewPCG(seed(c.ID), 0))
		scale = max(1, len(in)/1000) // keep big inputs to about a thousand writes
	}
	var out []piece
	holds := c.PauseAt // validated: increasing, inside the input
	for start := 0; start < len(in); {
		end := len(in)
		if len(holds) > 0 {
			end = holds[0]
		}
		if rng != nil {
			end = min(end, start+(1+rng.IntN(4))*scale)
		}
		p := piece{data: in[start:end]}
		switch {
		case len(holds) > 0 && end == holds[0]:
			p.pause = o.Hold
			holds = holds[1:]
		case rng != nil && end < len(in):
			p.pause = o.Pause
		}
		out = append(out, p)
		start = end
	}
	return out
}

// seed derives a stable random seed from a case id, so split runs repeat.
func seed(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}
