package lb

import "errors"

// ErrNoHealthyServer: every server of a Client is in its penalty period
// (or failed this request), so the request was not sent again.
var ErrNoHealthyServer = errors.New("lb: no healthy server")
