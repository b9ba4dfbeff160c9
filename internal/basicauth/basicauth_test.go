package basicauth

import (
	"net/url"
	"testing"
)

func TestFromUserinfo(t *testing.T) {
	for _, tt := range []struct {
		name string
		u    *url.Userinfo
		want string
	}{
		{"rfc7617_example", url.UserPassword("Aladdin", "open sesame"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="},
		{"no_password", url.User("alice"), "Basic YWxpY2U6"},
		{"empty_password", url.UserPassword("alice", ""), "Basic YWxpY2U6"},
		{"utf8", url.UserPassword("test", "123£"), "Basic dGVzdDoxMjPCow=="}, // RFC 7617 §2.1 with charset UTF-8
		{"none", nil, ""},
	} {
		if got := FromUserinfo(tt.u); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
