package brisk

import (
	"errors"
	"io"

	"github.com/brisk-http/brisk/wire"
)

// Started reports whether the response head has been sent (or buffered to
// be sent): after it, the status, fields and buffered body can no longer
// change.
func (w *BodyWriter) Started() bool { return w.started }

// BodyFilter transforms a body streamed through a BodyWriter, such as a
// compressor (package compress). Install it with BodyWriter.SetFilter.
type BodyFilter interface {
	// Begin is called once, when the streamed body starts, before the
	// response head is encoded: it may change the status code and fields
	// and reports whether to filter the body. A Content-Length left in
	// the fields must be that of the filtered body. It is not called for
	// a buffered response (one the handler never streamed).
	Begin(c *Ctx) bool
	// Write receives the body bytes the handler writes (Write,
	// WriteString, ReadFrom, and the body buffered before streaming) and
	// writes its output to the BodyWriter's Unfiltered writer.
	Write(p []byte) (int, error)
	// Flush writes out what the filter holds, so that the output so far
	// can be decoded; BodyWriter.Flush calls it before sending.
	Flush() error
}

// SetFilter makes the streamed body go through f (see BodyFilter) from
// its start. It has no effect once the body has started, and lasts until
// the handler returns. The owner of f ends its output (a compressor's
// last block) through Unfiltered after the handler returns, before the
// server finishes the body.
func (w *BodyWriter) SetFilter(f BodyFilter) {
	if !w.started {
		w.filter = f
	}
}

// Unfiltered returns a writer that sends its bytes as the body, bypassing
// the filter: the filter's output goes there. It is valid until the
// handler's middleware returns. Once the streamed response is taken back
// (Ctx.Error before any of it left), which removes the filter, its
// writes fail and send nothing: the filter's late output (a compressor's
// last block) must not follow the error response's body.
func (w *BodyWriter) Unfiltered() io.Writer { return unfiltered{w} }

type unfiltered struct{ w *BodyWriter }

// errFilterRemoved fails the writes of a removed filter (Unfiltered).
var errFilterRemoved = errors.New("brisk: body filter removed with the response it filtered")

func (u unfiltered) Write(p []byte) (int, error) {
	w := u.w
	if w.filter == nil {
		return 0, errFilterRemoved
	}
	saved := w.filtering
	w.filtering = false
	n, err := writeBody(w, p)
	w.filtering = saved
	return n, err
}

// writeFiltered hands p to the filter.
func writeFiltered[B wire.Bytes](w *BodyWriter, p B) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.filter.Write([]byte(p))
	if err != nil && w.err == nil {
		w.err = err
		w.c.keepAlive = false
	}
	return n, err
}

// flushFilter flushes the filter's output into the write buffer.
func (w *BodyWriter) flushFilter() {
	if err := w.filter.Flush(); err != nil && w.err == nil {
		w.err = err
		w.c.keepAlive = false
	}
}

// readFiltered copies r through the filter.
func (w *BodyWriter) readFiltered(r io.Reader) (int64, error) {
	return io.Copy(filterWriter{w}, r)
}

type filterWriter struct{ w *BodyWriter }

func (f filterWriter) Write(p []byte) (int, error) { return writeFiltered(f.w, p) }
