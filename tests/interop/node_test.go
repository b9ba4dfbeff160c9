package interop

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// nodeWS returns the node binary and a NODE_PATH where the npm package ws
// resolves (interop/node_modules, from `npm install --no-save ws@8` in
// interop/, or the global modules), or skips the test.
func nodeWS(t *testing.T) (node, nodePath string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found (Debian package nodejs)")
	}
	paths := []string{}
	if abs, err := filepath.Abs("node_modules"); err == nil {
		paths = append(paths, abs)
	}
	if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		paths = append(paths, strings.TrimSpace(string(out)))
	}
	nodePath = strings.Join(paths, string(os.PathListSeparator))
	cmd := exec.Command(node, "-e", "require.resolve('ws')")
	cmd.Env = append(os.Environ(), "NODE_PATH="+nodePath)
	if cmd.Run() != nil {
		t.Skip("npm package ws not found: run `npm install --no-save ws@8` in interop/")
	}
	return node, nodePath
}

// TestWebSocketNode runs Node's ws client (testdata/wsclient.js) against
// both WebSocket echo servers: text, binary, fragmented and 1 MiB
// messages, ping/pong and the close handshake.
func TestWebSocketNode(t *testing.T) {
	node, nodePath := nodeWS(t)
	for name, h := range wsServers {
		t.Run(name, func(t *testing.T) {
			addr := serve(t, &brisk.Server{Handler: h})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "testdata/wsclient.js", "ws://"+addr+"/ws")
			cmd.Env = append(os.Environ(), "NODE_PATH="+nodePath)
			out, err := cmd.CombinedOutput()
			want := "ok text\nok binary\nok fragmented\nok 1MiB\nok ping\nok close\ndone\n"
			if err != nil || string(out) != want {
				t.Errorf("node client: %v\n%s", err, out)
			}
		})
	}
}

// TestWebSocketNodeLimits runs testdata/wsbrisk.js, Node's ws client,
// against package websocket's echo: permessage-deflate negotiated and a
// compressed 1.5 MiB message echoed, Close 1009 for a 5 MiB message and
// 1007 for invalid UTF-8 in a text message.
func TestWebSocketNodeLimits(t *testing.T) {
	node, nodePath := nodeWS(t)
	addr := serve(t, &brisk.Server{Handler: briskEcho})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/wsbrisk.js", "ws://"+addr+"/ws")
	cmd.Env = append(os.Environ(), "NODE_PATH="+nodePath)
	out, err := cmd.CombinedOutput()
	if want := "ok deflate\nok 1009\nok 1007\ndone\n"; err != nil || string(out) != want {
		t.Errorf("node client: %v\n%s", err, out)
	}
}
