package echo

import (
	"strings"
	"testing"
)

func TestPrefersHTML(t *testing.T) {
	tests := []struct {
		name   string
		accept []string // one entry per Accept field line
		want   bool
	}{
		{"none", nil, false},
		{"chromium", []string{"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"}, true},
		{"firefox", []string{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, true},
		{"curl_any", []string{"*/*"}, false},
		{"json", []string{"application/json"}, false},
		{"json_over_html", []string{"text/html;q=0.5, application/json"}, false},
		{"html_over_json", []string{"application/json;q=0.4, text/html"}, true},
		{"tie", []string{"text/html, application/json"}, false},
		{"text_wildcard", []string{"text/*, application/json;q=0.2"}, true},
		{"specific_beats_wildcard", []string{"text/html;q=0, */*"}, false},
		{"html_refused", []string{"text/html; q=0"}, false},
		{"case_and_ows", []string{" TEXT/HTML ; Q=0.9 , */*;q=0.1"}, true},
		{"bad_q", []string{"text/html;q=abc, application/json;q=0.1"}, false},
		{"q_above_1", []string{"text/html;q=2"}, false},
		{"two_lines", []string{"application/json;q=0.1", "text/html"}, true},
		{"other_param", []string{"text/html;level=1;q=0.7, application/json;q=0.6"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest("GET", "/echo")
			for _, a := range tt.accept {
				r.Header.Add("Accept", a)
			}
			if got := PrefersHTML(r); got != tt.want {
				t.Errorf("PrefersHTML(Accept %q) = %v, want %v", tt.accept, got, tt.want)
			}
		})
	}
}

// TestAppendHTML checks the page shows the request as text, with every
// byte that could be markup escaped and unreadable values Go-quoted.
func TestAppendHTML(t *testing.T) {
	r := newRequest("POST", `/a?<b>="&'`, [2]string{"Host", "h"}, [2]string{"X-Bin", "caf\xe9"}, [2]string{"X-Tag", "<script>alert(1)</script>"})
	out := string(AppendHTML(nil, r, []byte("line 1\n<i>&</i>\x00")))
	want := []string{
		"<p><code>POST /a?&lt;b&gt;=&#34;&amp;&#39; " + r.Proto() + "</code></p>\n",
		"<tr><th>Host</th><td>h</td></tr>\n",
		"<tr><th>X-Bin</th><td>&#34;caf\\xe9&#34;</td></tr>\n",
		"<tr><th>X-Tag</th><td>&lt;script&gt;alert(1)&lt;/script&gt;</td></tr>\n",
		"<h2>Body (16 bytes)</h2>\n<pre>&#34;line 1\\n&lt;i&gt;&amp;&lt;/i&gt;\\x00&#34;</pre>\n",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("page lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "<script>") || strings.Contains(out, "<i>") || !strings.HasSuffix(out, "</html>\n") {
		t.Errorf("unescaped markup or no end:\n%s", out)
	}
	text := string(AppendHTML(nil, r, []byte("a\tb\r\nc")))
	if !strings.Contains(text, "<pre>a\tb\r\nc</pre>") {
		t.Errorf("readable body not shown as text:\n%s", text)
	}
}
