package load

import "github.com/brisk-http/brisk/wire"

// bodyState is the part of a response the reader expects next.
type bodyState uint8

const (
	inHead    bodyState = iota // status line and field section
	inLength                   // left more body bytes (Content-Length)
	inChunked                  // chunked body, fed to the decoder
	inClose                    // body runs until the server closes (RFC 9112 §6.3 rule 8)
)

// maxFields is the field storage of one response head; a head with more
// field lines is a parse error (wire.ErrTooManyFields).
const maxFields = 64

// response is the reusable state for reading one response after another
// off a connection.
type response struct {
	parser  wire.Parser
	head    wire.ResponseHead
	fields  [maxFields]wire.Field
	chunked wire.ChunkedDecoder // Trailers nil: trailer fields are checked, then discarded
	state   bodyState
	left    int64 // body bytes still to skip, inLength
}

// reset prepares r for the next response head.
func (r *response) reset() {
	r.head.Reset(r.fields[:])
	r.state = inHead
}

// advance consumes what it can of buf, the unread input. It returns the
// number of bytes used and done, true when a whole response ended within
// them. A false done with a nil error means buf ends inside the response.
// headRequest reports that the request was HEAD (no body follows).
func (r *response) advance(buf []byte, headRequest bool) (used int, done bool, err error) {
	for {
		switch r.state {
		case inHead:
			n, err := r.parser.ParseResponse(buf[used:], &r.head)
			if err == wire.ErrNeedMore {
				return used, false, nil
			}
			if err != nil {
				return used, false, err
			}
			used += n
			if r.head.Interim() {
				r.head.Reset(r.fields[:]) // interim response (RFC 9110 §15.2): the final one follows
				continue
			}
			switch r.head.Framing(headRequest) {
			case wire.FramingNone:
				return used, true, nil
			case wire.FramingLength:
				r.state, r.left = inLength, r.head.ContentLength
			case wire.FramingChunked:
				r.state = inChunked
				r.chunked.Reset()
			default:
				r.state = inClose
			}
		case inLength:
			k := int64(len(buf) - used)
			if k >= r.left {
				used += int(r.left)
				r.left = 0
				return used, true, nil
			}
			r.left -= k
			return len(buf), false, nil
		case inChunked:
			_, n, err := r.chunked.Decode(buf[used:])
			used += n
			return used, r.chunked.Done(), err
		default: // inClose: everything up to EOF is body
			return len(buf), false, nil
		}
	}
}
