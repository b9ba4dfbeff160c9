package router

import "errors"

// Route pattern errors. Router.Register returns a *PatternError that
// wraps one of them (errors.Is works).
var (
	// ErrPatternSyntax: the pattern is not "[METHOD ][HOST]/[PATH]" with
	// valid wildcards, or it can never match a request.
	ErrPatternSyntax = errors.New("router: invalid route pattern")
	// ErrPatternConflict: the pattern and one already registered both
	// match some request and neither is more specific.
	ErrPatternConflict = errors.New("router: route pattern conflict")
)
