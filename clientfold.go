package brisk

import (
	"bytes"
	"errors"

	"github.com/brisk-http/brisk/wire"
)

// Line folding in a response head (RFC 9112 §5.2: a user agent that
// receives an obs-fold in a response replaces it with SP before
// interpreting the field value). wire rejects every obs-fold
// (wire.ErrObsFold); on that error the client waits for the whole head,
// unfolds it in place in the read buffer and parses it again. It is a
// rare path: it costs one scan and one copy of the head.

// unfoldable reports whether err, from parsing head b, is an obs-fold the
// client replaces: a field line starting with SP or HTAB after another
// field line. Whitespace before the first field line is no fold: it stays
// an error (RFC 9112 §2.2).
func unfoldable(err error, b []byte) bool {
	var we *wire.Error
	if !errors.As(err, &we) || we.Kind != wire.ErrObsFold {
		return false
	}
	return we.Offset != bytes.IndexByte(b, '\n')+1
}

// headEnd returns the length of the head at the start of b: through the
// CRLF of the empty line that ends it, or through the first bare LF (wire
// rejects the head there). It scans from offset from (at least 2) and
// returns false with the offset to resume from when b holds no end.
func headEnd(b []byte, from int) (int, bool) {
	for i := from; i < len(b); i++ {
		if b[i] == '\n' && (b[i-1] != '\r' || b[i-2] == '\n') {
			return i + 1, true
		}
	}
	return max(len(b), from), false
}

// unfold replaces each obs-fold of head b (the optional whitespace ending
// a line, its CRLF and the whitespace starting the next line) with one SP,
// in place, and returns the new length. b is a whole head, as headEnd
// delimits it; its first field line does not start with whitespace.
func unfold(b []byte) int {
	fields := bytes.IndexByte(b, '\n') + 1
	w := fields
	for i := fields; i < len(b); {
		end := len(b)
		if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
			end = i + j + 1
		}
		line := b[i:end]
		if isOWS(line[0]) && w-2 > fields && b[w-2] == '\r' && b[w-1] == '\n' {
			w -= 2
			for w > fields && isOWS(b[w-1]) {
				w--
			}
			b[w] = ' '
			w++
			for len(line) > 0 && isOWS(line[0]) {
				line = line[1:]
			}
		}
		w += copy(b[w:], line)
		i = end
	}
	return w
}

// unfoldHead reads the rest of the head that starts at rbuf[r0], bounded
// by MaxResponseHeaderBytes (wire.ErrHeaderTooLarge), and replaces its
// obs-folds with SP (unfold). The unfolded head is moved to end where the
// received one ended, so the bytes after it stay in place.
func (cc *clientConn) unfoldHead() error {
	limit := cc.hc.lim.maxHeader
	scan := 2
	for {
		b := cc.rbuf[cc.r0:cc.r1]
		if len(b) > limit {
			b = b[:limit]
		}
		end, ok := headEnd(b, scan)
		if ok {
			n := unfold(b[:end])
			d := end - n
			copy(b[d:end], b[:n])
			cc.r0 += d
			return nil
		}
		if len(b) == limit {
			return &wire.Error{Kind: wire.ErrHeaderTooLarge, Offset: limit}
		}
		scan = end
		if err := cc.fill(limit, wire.ErrHeaderTooLarge); err != nil {
			return err
		}
	}
}
