//go:build race

package hostile

// raceEnabled: the race detector multiplies the cost of every goroutine
// switch, so rates measured under it say nothing about the server.
const raceEnabled = true
