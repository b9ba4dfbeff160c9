package reuseport

import "errors"

// errListen heads the error of a Listen that failed, joined with the
// cause. On a platform without SO_REUSEPORT the cause is errUnsupported
// (reuseport_other.go).
var errListen = errors.New("reuseport: SO_REUSEPORT listen")
