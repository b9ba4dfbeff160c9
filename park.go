package brisk

import "time"

// DefaultParkIdleAfter is the wait in its goroutine before an idle
// keep-alive connection is parked (Server.NoParkIdle, ParkIdleAfter).
const DefaultParkIdleAfter = 2 * time.Second
