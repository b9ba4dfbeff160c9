package metrics

import "github.com/brisk-http/brisk"

// ErrorTypes are the values ErrorType returns, the label values of
// brisk_server_request_errors_total: the names of brisk's error classes
// (brisk.ErrorClass).
var ErrorTypes = [...]string{"reset", "closed", "timeout", "too_slow", "too_large", "bad_request", "other"}

// ErrorType returns the label value of the error that ended a request
// (RequestInfo.Err): the name of its brisk.ErrorClass,
// brisk.ClassifyError(err).String(), one of ErrorTypes ("other" for nil).
func ErrorType(err error) string { return brisk.ClassifyError(err).String() }

// ClientError reports whether err, the error that ended a request, is
// the client's doing: brisk.ClassifyError(err).ClientCaused() (a reset,
// a close, a timeout or a rate below the minimum).
//
// Deprecated: use brisk.ClassifyError(err).ClientCaused().
func ClientError(err error) bool { return brisk.ClassifyError(err).ClientCaused() }
