package brisk

import "mime/multipart"

// forms holds what a Request derives lazily from its target and body:
// query and form arguments and the multipart form. The Args are allocated
// on first use and kept, with their buffers, for later requests on the
// connection.
type forms struct {
	query     *Args
	queryDone bool

	post     *Args
	postErr  error
	postDone bool

	multipart *multipart.Form
	formErr   error
	formDone  bool
}

// reset forgets the previous request's arguments and removes the
// temporary files of its multipart form, if still there.
func (f *forms) reset() {
	f.removeForm()
	f.queryDone = false
	f.postErr, f.postDone = nil, false
	f.formErr, f.formDone = nil, false
}

// removeForm deletes the multipart form's temporary files and forgets it.
func (f *forms) removeForm() {
	if f.multipart != nil {
		f.multipart.RemoveAll()
		f.multipart = nil
	}
}

// QueryArgs returns the arguments of the query (see Query and Args), parsed
// lazily: the first call costs nothing, lookups scan only as far as
// needed. The Args and the values it returns are valid until the handler
// returns. A request without a query has no arguments.
func (r *Request) QueryArgs() *Args {
	f := &r.forms
	if f.query == nil {
		f.query = new(Args)
	}
	if !f.queryDone {
		f.query.Reset(r.Query())
		f.queryDone = true
	}
	return f.query
}

// PostArgs returns the arguments of an application/x-www-form-urlencoded
// body (WHATWG URL Standard §5.1), read with Body: it is bounded by
// Server.MaxBodyBytes and fails with Body's error (ErrBodyTooLarge, or a
// wire error for a malformed chunked body; the server then answers 413 or
// 400). A request with another Content-Type, or none, has no arguments
// and its body is not read. Later calls return the same result. The Args
// and its values are valid until the handler returns.
func (r *Request) PostArgs() (*Args, error) {
	f := &r.forms
	if f.post == nil {
		f.post = new(Args)
	}
	if f.postDone {
		return f.post, f.postErr
	}
	f.postDone = true
	f.post.Reset(nil)
	if !IsFormURLEncoded(r.Header.Get("Content-Type")) {
		return f.post, nil
	}
	body, err := r.Body()
	if err != nil {
		f.postErr = err
		return f.post, err
	}
	f.post.Reset(body)
	return f.post, nil
}

// MultipartForm reads a multipart/form-data body (RFC 7578) with
// ParseMultipart, within limits (zero fields take the defaults) and
// Server.MaxBodyBytes. Later calls return the same result, whatever their
// limits.
//
// The form is valid until the handler returns: the server then deletes
// its temporary files (on a request built for a client, call RemoveAll
// yourself). Errors: ErrNotMultipart (another Content-Type, or no
// boundary: answer 415), ErrMultipartParts, ErrMultipartTooLarge,
// ErrBodyTooLarge (413), or a mime/multipart error for a malformed body
// (400); ErrorStatus maps each to its status code.
func (r *Request) MultipartForm(limits MultipartLimits) (*multipart.Form, error) {
	f := &r.forms
	if f.formDone {
		return f.multipart, f.formErr
	}
	f.formDone = true
	boundary, err := MultipartBoundary(r.Header.Get("Content-Type"))
	if err == nil {
		f.multipart, err = ParseMultipart(r.BodyReader(), boundary, limits)
	}
	f.formErr = err
	return f.multipart, err
}

// afterHandler releases what the handler's request held beyond the
// connection's buffers: the multipart form's temporary files.
func (r *Request) afterHandler() { r.forms.removeForm() }
