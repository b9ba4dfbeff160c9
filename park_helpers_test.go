package brisk

import "os"

// parkEnv names the environment variable that, set to 1, makes every
// test server (startServer) park idle connections at once
// (ParkIdleAfter -1), to run the whole suite with parking:
// BRISK_TEST_PARK=1 go test ./... Set to detach, it also sweeps every
// 20 ms (park_linux_test.go), so that connections idle for more than two
// sweeps are served again from their fd alone. Set to off, it turns
// parking off (NoParkIdle) in every test server. A test that set
// ParkIdleAfter or NoParkIdle itself keeps its setting.
const parkEnv = "BRISK_TEST_PARK"

// forceParking applies parkEnv to s.
func forceParking(s *Server) {
	if s.NoParkIdle || s.ParkIdleAfter != 0 {
		return
	}
	switch os.Getenv(parkEnv) {
	case "1", "detach":
		s.ParkIdleAfter = -1
	case "off":
		s.NoParkIdle = true
	}
}
