//go:build unix

package interop

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// wsPage opens ws://<host>/ws, exchanges a text, a binary and a 1 MiB
// message, closes with 1000 and reports each check to /report.
const wsPage = `<!DOCTYPE html><html><body><script>
const results = [];
const report = () => fetch('/report?r=' + encodeURIComponent(results.join(',')));
const big = new Uint8Array(1 << 20).map((_, i) => i % 251);
const ws = new WebSocket('ws://' + location.host + '/ws');
ws.binaryType = 'arraybuffer';
const steps = [
  ['text', () => ws.send('hello'), d => d === 'hello'],
  ['binary', () => ws.send(new Uint8Array([0, 1, 2, 255])), d => d instanceof ArrayBuffer && new Uint8Array(d).join() === '0,1,2,255'],
  ['1MiB', () => ws.send(big), d => d instanceof ArrayBuffer && d.byteLength === big.length && new Uint8Array(d).every((v, i) => v === big[i])],
];
let i = 0;
ws.onopen = () => steps[0][1]();
ws.onerror = () => { results.push('error'); report(); };
ws.onmessage = (e) => {
  results.push(steps[i][0] + '=' + steps[i][2](e.data));
  i++;
  if (i < steps.length) steps[i][1](); else ws.close(1000, 'bye');
};
ws.onclose = (e) => { results.push('close=' + e.code); report(); };
</script></body></html>`

// TestWebSocketChromium loads wsPage in headless Chromium against both
// WebSocket echo servers and checks what the page reports.
func TestWebSocketChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not found (Debian package chromium)")
	}
	for name, wsHandler := range wsServers {
		t.Run(name, func(t *testing.T) {
			reports := make(chan string, 1)
			page := brisk.FromHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/report":
					select {
					case reports <- r.URL.Query().Get("r"):
					default:
					}
				case "/":
					w.Header().Set("Content-Type", "text/html")
					w.Write([]byte(wsPage))
				default:
					http.NotFound(w, r)
				}
			}))
			addr := serve(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
				if string(c.Request.Path()) == "/ws" {
					wsHandler(c)
					return
				}
				page(c)
			}})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			profile, err := os.MkdirTemp("", "brisk-chromium-")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(profile)
			cmd := exec.CommandContext(ctx, chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
				"--no-first-run", "--user-data-dir="+profile, "http://"+addr+"/")
			// Its own process group, so that its helper processes end with it.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
			cmd.WaitDelay = 5 * time.Second
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				cancel()
				cmd.Wait()
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // helpers that outlived it
				time.Sleep(100 * time.Millisecond)
			}()
			select {
			case got := <-reports:
				if want := "text=true,binary=true,1MiB=true,close=1000"; got != want {
					t.Errorf("page reported %q, want %q", got, want)
				}
			case <-ctx.Done():
				t.Fatal("no report from the page within 30 s")
			}
		})
	}
}
