package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// TestServeChromium loads the demo site from `brisk serve -tls` in
// headless Chromium (--ignore-certificate-errors: the certificate is
// self-signed) and reads the protocol it used from its net log: h2.
func TestServeChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not found in PATH; install it with: apt-get install chromium")
	}
	lines, stop := startServeLines(t, serveOptions{addr: "127.0.0.1:0", tlsOptions: tlsOptions{tls: true}}, 1)
	defer stop()
	url := strings.TrimPrefix(lines[0], "brisk: serving ")
	dir := t.TempDir()
	netlog := filepath.Join(dir, "netlog.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dom, err := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--ignore-certificate-errors", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--log-net-log="+netlog, "--dump-dom", url).Output()
	if err != nil || !strings.Contains(string(dom), "<title>brisk</title>") {
		t.Fatalf("chromium --dump-dom %s (%v):\n%.300s", url, err, dom)
	}
	log, err := os.ReadFile(netlog)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"negotiated_protocol":"h2"`) {
		t.Fatalf("chromium's net log shows no negotiated_protocol h2 for %s", url)
	}
}

// TestEchoPageWidthChromium loads the /echo page of `brisk serve` in
// headless Chromium, driven over the DevTools protocol, at 1280 and 390
// CSS pixels wide, for a request with a long target, a long field value
// without a break opportunity and a long hyphenated field name: the page
// must not scroll sideways (document.documentElement.scrollWidth <=
// clientWidth), no cell may overflow, and the name may wrap only at its
// hyphens, never inside a word.
func TestEchoPageWidthChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not found in PATH; install it with: apt-get install chromium")
	}
	url, _, stop := startServe(t, serveOptions{addr: "127.0.0.1:0"})
	defer stop()
	page := newDevToolsPage(t, chromium)
	const name = "X-Rather-Long-Field-Name-From-A-Proxy-Somewhere"
	value := strings.Repeat("0123456789abcdef", 40) // 640 bytes, no space
	page.call(t, "Network.enable", nil)
	page.call(t, "Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{name: value}})
	for _, width := range []int{1280, 390} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			page.call(t, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": false})
			// A long target; w= makes each width's URL, and document, new.
			target := url + "echo?" + strings.Repeat("q=long-query-string&", 20) + "w=" + strconv.Itoa(width)
			page.call(t, "Page.navigate", map[string]any{"url": target})
			var got struct {
				Ready                    bool
				ScrollWidth, ClientWidth int
				Overflowing, SplitWords  []string
			}
			deadline := time.Now().Add(20 * time.Second)
			for !got.Ready || got.ScrollWidth == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the /echo page did not load")
				}
				time.Sleep(50 * time.Millisecond)
				page.eval(t, strings.ReplaceAll(echoLayoutJS, "WIDTH", strconv.Itoa(width)), &got)
			}
			if got.ScrollWidth > got.ClientWidth {
				t.Errorf("the page scrolls sideways: scrollWidth %d > clientWidth %d", got.ScrollWidth, got.ClientWidth)
			}
			if len(got.Overflowing) > 0 {
				t.Errorf("cells wider than their box: %q", got.Overflowing)
			}
			if len(got.SplitWords) > 0 {
				t.Errorf("field-name words broken across lines: %q", got.SplitWords)
			}
		})
	}
}

// echoLayoutJS measures the /echo page for WIDTH once it has loaded
// (Ready: the page of that width, complete): the root's scroll and client
// width, the cells and code whose content overflows them, and the words of
// field names (split at "-") laid out on more than one line.
const echoLayoutJS = `(() => {
  const ready = document.readyState === 'complete' && location.search.endsWith('&w=WIDTH') && document.querySelector('th') !== null;
  if (!ready) return {Ready: false};
  const r = {Ready: ready, ScrollWidth: document.documentElement.scrollWidth, ClientWidth: document.documentElement.clientWidth, Overflowing: [], SplitWords: []};
  for (const el of document.querySelectorAll('th, td, p > code, pre')) {
    if (el.scrollWidth > el.clientWidth + 1) r.Overflowing.push(el.tagName + ' ' + el.textContent.slice(0, 30));
  }
  for (const th of document.querySelectorAll('th')) {
    const text = th.firstChild;
    if (!text) continue;
    let at = 0;
    for (const word of text.data.split('-')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      if (tops.size > 1) r.SplitWords.push(word);
      at += word.length + 1;
    }
  }
  return r;
})()`

// devToolsPage is one tab of a headless Chromium, driven over the
// DevTools protocol with gobwas/ws's client.
type devToolsPage struct {
	conn net.Conn
	id   int
}

// newDevToolsPage starts chromium with a new profile and a DevTools
// listener on a free loopback port and connects to its first tab; the
// browser is stopped when the test ends.
func newDevToolsPage(t *testing.T, chromium string) *devToolsPage {
	t.Helper()
	// Not t.TempDir: a helper process of Chromium may still write to the
	// profile for a moment after the browser exits.
	dir, err := os.MkdirTemp("", "brisk-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; os.RemoveAll(dir) != nil && i < 20; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--remote-debugging-address=127.0.0.1",
		"--remote-debugging-port=0", "about:blank")
	// SIGTERM: Chromium stops its helper processes before it exits.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	// Chromium writes the port it chose to DevToolsActivePort.
	var port string
	for deadline := time.Now().Add(30 * time.Second); port == ""; {
		if b, err := os.ReadFile(filepath.Join(dir, "profile", "DevToolsActivePort")); err == nil {
			port, _, _ = strings.Cut(string(b), "\n")
		}
		if time.Now().After(deadline) {
			t.Fatal("chromium wrote no DevToolsActivePort")
		}
		time.Sleep(50 * time.Millisecond)
	}
	var tabs []struct{ Type, WebSocketDebuggerURL string }
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&tabs)
			resp.Body.Close()
		}
		if err == nil && len(tabs) > 0 && tabs[0].Type == "page" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tab in chromium's /json/list: %v %+v", err, tabs)
		}
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer dcancel()
	conn, _, _, err := ws.Dial(dctx, tabs[0].WebSocketDebuggerURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &devToolsPage{conn: conn}
}

// call sends a DevTools command and returns its result, skipping the
// events that come before it.
func (p *devToolsPage) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	p.id++
	msg, err := json.Marshal(map[string]any{"id": p.id, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	p.conn.SetDeadline(time.Now().Add(20 * time.Second))
	if err := wsutil.WriteClientText(p.conn, msg); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	for {
		b, err := wsutil.ReadServerText(p.conn)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		var resp struct {
			ID     int
			Result json.RawMessage
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(b, &resp); err != nil {
			t.Fatalf("%s: %v in %.200s", method, err, b)
		}
		if resp.ID != p.id {
			continue // an event
		}
		if resp.Error != nil {
			t.Fatalf("%s: %s", method, resp.Error.Message)
		}
		return resp.Result
	}
}

// eval evaluates a JavaScript expression in the page and decodes its
// value, returned by value, into v.
func (p *devToolsPage) eval(t *testing.T, expr string, v any) {
	t.Helper()
	res := p.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true})
	var r struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct{ Text string }
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("evaluate: %s", r.ExceptionDetails.Text)
	}
	if err := json.Unmarshal(r.Result.Value, v); err != nil {
		t.Fatalf("evaluate: %v in %s", err, r.Result.Value)
	}
}
