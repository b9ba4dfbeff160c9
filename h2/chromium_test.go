package h2

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/brisk-http/brisk"
)

// TestChromium loads a page over HTTPS in headless Chromium (with
// --ignore-certificate-errors, the test certificate being its own CA's)
// and checks the protocol it used: the page is the request's Proto, so
// "HTTP/2.0" means Chromium negotiated h2 with brisk's ALPN and was served
// through the hand-over.
func TestChromium(t *testing.T) {
	chromium := tool(t, "chromium", "apt-get install chromium")
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>proto</title><p id="proto">`+r.Proto+`</p>`)
	})
	addr := start(t, &brisk.Server{}, Config{Handler: page}, true)
	out, err := run(t, 60*time.Second, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--ignore-certificate-errors", "--user-data-dir="+t.TempDir(), "--dump-dom", "https://"+addr+"/")
	if !strings.Contains(out, `<p id="proto">HTTP/2.0</p>`) {
		t.Fatalf("chromium --dump-dom (%v):\n%s", err, out)
	}
}
