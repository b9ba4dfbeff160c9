//go:build race

package advisories

// floodScale divides the sizes of the flood tests: the race detector
// multiplies the cost of every frame and goroutine switch.
const floodScale = 10
