package load_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"

	"github.com/brisk-http/brisk/load"
)

// ExampleConnectError shows Run returning at once when nothing listens at
// the URL's address.
func ExampleConnectError() {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	url := "http://" + ln.Addr().String() + "/"
	ln.Close() // now nothing listens there

	_, err := load.Run(context.Background(), load.Config{URL: url, Duration: time.Minute}, nil)
	var ce *load.ConnectError
	if errors.As(err, &ce) {
		fmt.Println("refused:", errors.Is(err, syscall.ECONNREFUSED))
	}
	// Output:
	// refused: true
}
