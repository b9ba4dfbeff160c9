package brisk

import (
	"testing"

	"github.com/brisk-http/brisk/wire"
)

// TestResponseStatusCodeStates checks StatusCode in each state of a
// Response: a new or Reset one reports the default 200, one being received
// (resetReceived) 0 until its head arrives, then the code received, and a
// Reset after that is back to 200.
func TestResponseStatusCodeStates(t *testing.T) {
	var r Response
	check := func(state string, want int) {
		t.Helper()
		if got := r.StatusCode(); got != want {
			t.Fatalf("%s: StatusCode() = %d, want %d", state, got, want)
		}
	}
	check("zero value", 200)
	r.SetStatusCode(404)
	check("set", 404)
	r.resetReceived()
	check("awaiting a head", 0)
	r.setReceivedHead(&wire.ResponseHead{StatusCode: 503})
	check("head received", 503)
	r.Reset()
	check("reset", 200)
}
