//go:build !linux || 386

package reverseproxy

import (
	"net"
	"time"
)

// rawPipeCopy reports false: off Linux (no TCP_INQ), and on 386 every tunnel
// copies with Read and Write (pipeCopy).
func rawPipeCopy(dst, src net.Conn, buf []byte, rd, wd *idleDeadline, idle time.Duration) (bool, error) {
	return false, nil
}
