package brisk

import "time"

// DefaultParkIdleAfter is the wait in its goroutine before an idle
// keep-alive connection is parked (Server.ParkIdle, ParkIdleAfter).
const DefaultParkIdleAfter = 2 * time.Second
