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

// Errors a Router gives the ErrorHandler (see Router.SetErrorHandler)
// for the replies of its own.
var (
	// ErrNotFound: no pattern matches the request (404).
	ErrNotFound = errors.New("router: no route matches the request")
	// ErrMethodNotAllowed: patterns match the path, none the method
	// (405; the Router sets Allow after the ErrorHandler).
	ErrMethodNotAllowed = errors.New("router: method not allowed")
	// ErrRedirect: the path is not in normal form, or matches only with
	// a "/" appended (307; the Router sets Location after the
	// ErrorHandler).
	ErrRedirect = errors.New("router: path redirected")
)
