package metrics

import (
	"slices"
	"testing"

	"github.com/brisk-http/brisk"
)

// TestErrorTypesComplete: ErrorTypes holds the name of every
// brisk.ErrorClass once, so every error has its pre-registered series.
func TestErrorTypesComplete(t *testing.T) {
	if len(ErrorTypes) != brisk.NumErrorClasses {
		t.Fatalf("%d ErrorTypes, %d classes", len(ErrorTypes), brisk.NumErrorClasses)
	}
	for c := range brisk.ErrorClass(brisk.NumErrorClasses) {
		if !slices.Contains(ErrorTypes[:], c.String()) {
			t.Errorf("class %v not in ErrorTypes", c)
		}
	}
}
