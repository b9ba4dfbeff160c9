// Package httpjar lets a brisk client use a net/http.CookieJar, such as
// one from net/http/cookiejar:
//
//	jar, _ := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
//	c := brisk.Client{ClientConfig: brisk.ClientConfig{Jar: httpjar.New(jar)}}
//
// brisk.CookieJar takes and gives field values as bytes, so that a jar
// written for brisk need not build an http.Cookie per cookie; this
// adapter builds them, as net/http does. It is a package of its own only
// to keep net/http's cookie types out of package brisk's client API: it
// does not change what a program links, since package brisk imports
// net/http (for FromHTTP and ToHTTP).
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
