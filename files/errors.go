package files

import "errors"

// errShrank reports a file that ended before its size as stated when the
// response began: the body is cut short and the connection closed. It is
// logged, never returned: nothing outside the package can see it.
var errShrank = errors.New("files: file shorter than its size; response cut short")

// errChanged reports a file that changed (size, modification time, mode,
// inode or status change time) while it was sent: the response is cut
// short before its last byte and the connection closed, so the client
// does not take the bytes for the representation its validators name.
// It is logged, never returned.
var errChanged = errors.New("files: file changed while sent; response cut short")
