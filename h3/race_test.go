//go:build race

package h3

// raceOn reports whether the race detector is on.
const raceOn = true
