package brisk

import "context"

// SetContext replaces the context Ctx.Context returns for the rest of
// the request, for middleware that derives one from it: a deadline
// (context.WithTimeout), a trace span, values. ctx should derive from
// Context() so that Shutdown and the client going away (see
// Server.IgnoreClientClose) still cancel it. The server sets a fresh context for the next request; like the
// Ctx, do not use ctx after the handler returns.
func (c *Ctx) SetContext(ctx context.Context) { c.ctx = ctx }
