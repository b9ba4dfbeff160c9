package interop

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// pythonWebsockets returns a python3 that imports websockets (Debian's
// python3-websockets: /usr/bin/python3 first, as another python3 on PATH
// may not see Debian's packages), or skips the test.
func pythonWebsockets(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil && exec.Command(path, "-c", "import websockets").Run() == nil {
			return path
		}
	}
	t.Skip("no python3 with websockets (Debian package python3-websockets)")
	return ""
}

// TestWebSocketPython runs testdata/wsclient.py, Python's websockets
// client, against package websocket's echo: permessage-deflate, text,
// binary, fragmented and 1 MiB messages, ping, the close handshake and
// Close 1009 for a message over the limit.
func TestWebSocketPython(t *testing.T) {
	python := pythonWebsockets(t)
	addr := serve(t, &brisk.Server{Handler: briskEcho})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "testdata/wsclient.py", "ws://"+addr+"/ws").CombinedOutput()
	want := "ok deflate\nok text\nok binary\nok fragmented\nok 1MiB\nok ping\nok close\nok 1009\ndone\n"
	if err != nil || string(out) != want {
		t.Errorf("python client: %v\n%s", err, out)
	}
}
