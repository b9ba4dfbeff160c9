// Package httpjar lets a brisk client use a net/http.CookieJar, such as
// one from net/http/cookiejar:
//
//	jar, _ := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
//	c := brisk.Client{ClientConfig: brisk.ClientConfig{Jar: httpjar.New(jar)}}
//
// It is a separate package so that brisk itself does not link net/http.
package httpjar

import (
	"net/http"
	"net/url"

	"github.com/brisk-http/brisk"
)

// New returns a brisk.CookieJar storing cookies in j. Set-Cookie values
// that net/http.ParseSetCookie rejects are ignored, as net/http does.
func New(j http.CookieJar) brisk.CookieJar { return jar{j} }

type jar struct{ j http.CookieJar }

func (j jar) AppendCookies(dst []byte, u *url.URL) []byte {
	for i, c := range j.j.Cookies(u) {
		if i > 0 {
			dst = append(dst, "; "...)
		}
		dst = append(dst, c.Name...)
		dst = append(dst, '=')
		dst = append(dst, c.Value...)
	}
	return dst
}

func (j jar) StoreSetCookies(u *url.URL, setCookies [][]byte) {
	cookies := make([]*http.Cookie, 0, len(setCookies))
	for _, v := range setCookies {
		if c, err := http.ParseSetCookie(string(v)); err == nil {
			cookies = append(cookies, c)
		}
	}
	if len(cookies) > 0 {
		j.j.SetCookies(u, cookies)
	}
}
