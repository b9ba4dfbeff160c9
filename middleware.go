package brisk

// Middleware wraps a Handler in another: the returned Handler does its
// work around a call to next (or answers without calling it). It is
// called once, when the handler chain is set up (router.Router.Use, or
// by hand), not per request.
type Middleware func(next Handler) Handler
