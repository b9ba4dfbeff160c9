package brisk

import "os"

// parkEnv names the environment variable that, set to 1, turns
// Server.ParkIdle on in every test server (startServer), to run the whole
// suite with parking: BRISK_TEST_PARK=1 go test ./... Set to detach, it
// also sweeps every 20 ms (park_linux_test.go), so that connections idle
// for more than two sweeps are served again from their fd alone.
const parkEnv = "BRISK_TEST_PARK"

// forceParking turns s.ParkIdle on, parking at once, when parkEnv asks
// for it, unless the test set ParkIdle itself.
func forceParking(s *Server) {
	if v := os.Getenv(parkEnv); !s.ParkIdle && (v == "1" || v == "detach") {
		s.ParkIdle, s.ParkIdleAfter = true, -1
	}
}
