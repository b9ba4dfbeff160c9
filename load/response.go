package load

import "github.com/brisk-http/brisk/wire"

// maxFields is the field storage of one response head; a head with more
// field lines is a parse error (wire.ErrTooManyFields).
const maxFields = 64

// response is the reusable state for reading one response after another
// off a connection.
type response struct {
	parser wire.Parser
	head   wire.ResponseHead
	fields [maxFields]wire.Field
	body   wire.BodyDecoder // Chunked.Trailers nil: trailer fields are checked, then discarded
	inBody bool             // the head is parsed; body (if any) follows
}

// reset prepares r for the next response head.
func (r *response) reset() {
	r.head.Reset(r.fields[:])
	r.inBody = false
}

// inHead reports that r is reading a response head.
func (r *response) inHead() bool { return !r.inBody }

// untilClose reports a body that runs until the server closes (RFC 9112
// §6.3 rule 8).
func (r *response) untilClose() bool { return r.inBody && r.body.Framing() == wire.FramingClose }

// advance consumes what it can of buf, the unread input. It returns the
// number of bytes used and done, true when a whole response ended within
// them. A false done with a nil error means buf ends inside the response.
// headRequest reports that the request was HEAD (no body follows).
func (r *response) advance(buf []byte, headRequest bool) (used int, done bool, err error) {
	for !r.inBody {
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
		r.body.Reset(r.head.Framing(headRequest), r.head.ContentLength)
		r.inBody = true
	}
	_, n, err := r.body.Decode(buf[used:])
	used += n
	return used, r.body.Done(), err
}
