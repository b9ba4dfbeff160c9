package brisk

import "os"

// parkEnv names the environment variable that, set to 1, turns
// Server.ParkIdle on in every test server (startServer), to run the whole
// suite with parking: BRISK_TEST_PARK=1 go test ./...
const parkEnv = "BRISK_TEST_PARK"

// forceParking turns s.ParkIdle on, parking at once, when parkEnv asks
// for it.
func forceParking(s *Server) {
	if os.Getenv(parkEnv) == "1" {
		s.ParkIdle, s.ParkIdleAfter = true, -1
	}
}
