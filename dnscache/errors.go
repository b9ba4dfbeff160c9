package dnscache

import "errors"

// errNoAddrs is the look-up error of a name with no address.
var errNoAddrs = errors.New("dnscache: DNS look-up returned no address")
