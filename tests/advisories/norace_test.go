//go:build !race

package advisories

// floodScale divides the sizes of the flood tests (see race_test.go).
const floodScale = 1
