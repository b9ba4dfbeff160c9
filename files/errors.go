package files

import "errors"

// errShrank reports a file that ended before its size as stated when the
// response began: the body is cut short and the connection closed. It is
// logged, never returned: nothing outside the package can see it.
var errShrank = errors.New("files: file shorter than its size; response cut short")
