package echo_test

import (
	"fmt"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/echo"
)

// ExamplePrefersHTML ranks a browser's Accept and a program's.
func ExamplePrefersHTML() {
	for _, accept := range []string{"text/html,application/xhtml+xml,*/*;q=0.8", "*/*", "application/json"} {
		r := new(brisk.Request)
		r.Header.Add("Accept", accept)
		fmt.Printf("%-42s %v\n", accept, echo.PrefersHTML(r))
	}
	// Output:
	// text/html,application/xhtml+xml,*/*;q=0.8  true
	// */*                                        false
	// application/json                           false
}
