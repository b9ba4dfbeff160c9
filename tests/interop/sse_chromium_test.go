//go:build unix

package interop

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/sse"
)

// ssePage opens an EventSource on /events and reports the events it gets,
// the reconnection included, to /report.
const ssePage = `<!DOCTYPE html><html><body><script>
const got = [];
const es = new EventSource('/events');
es.onmessage = (e) => got.push('message:' + e.lastEventId + ':' + JSON.stringify(e.data));
es.addEventListener('done', (e) => {
  got.push('done:' + e.lastEventId + ':' + JSON.stringify(e.data));
  es.close();
  fetch('/report?r=' + encodeURIComponent(got.join(',')));
});
es.onerror = () => got.push('reconnect');
</script></body></html>`

// TestSSEChromium loads ssePage in headless Chromium: the first stream
// sends a two-line event with id 1 and a retry of 100 ms and ends; the
// EventSource reconnects with Last-Event-ID 1, and the second stream's
// "done" event echoes it.
func TestSSEChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not found (Debian package chromium)")
	}
	reports := make(chan string, 1)
	addr := serve(t, &brisk.Server{Handler: func(c *brisk.Ctx) {
		switch string(c.Request.Path()) {
		case "/":
			c.Response.Header.Set("Content-Type", "text/html")
			c.Response.SetBodyString(ssePage)
		case "/events":
			s, err := sse.New(c, nil)
			if err != nil {
				return
			}
			if s.LastEventID() == "" {
				s.Send(sse.Event{ID: "1", Retry: 100 * time.Millisecond, Data: "line 1\nline 2"})
				return // the stream ends: the EventSource reconnects
			}
			s.Send(sse.Event{ID: "2", Event: "done", Data: "Last-Event-ID " + s.LastEventID()})
		case "/report":
			select {
			case reports <- string(c.Request.QueryArgs().Peek("r")):
			default:
			}
		default:
			c.Response.SetStatusCode(404)
		}
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its helpers end with it
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		cmd.Wait()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		time.Sleep(100 * time.Millisecond)
	}()
	select {
	case got := <-reports:
		if want := `message:1:"line 1\nline 2",reconnect,done:2:"Last-Event-ID 1"`; got != want {
			t.Errorf("page reported %s, want %s", got, want)
		}
	case <-ctx.Done():
		t.Fatal("no report from the page within 30 s")
	}
}
