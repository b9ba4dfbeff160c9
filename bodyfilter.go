package brisk

// Started reports whether the response head has been sent (or buffered to
// be sent): after it, the status, fields and buffered body can no longer
// change.
func (w *BodyWriter) Started() bool { return w.started }
