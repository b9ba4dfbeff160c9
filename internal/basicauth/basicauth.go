// Package basicauth encodes the credentials of the "Basic" HTTP
// authentication scheme (RFC 7617) taken from a URL's userinfo, as the
// client and the load generator send them in Proxy-Authorization for a
// proxy URL "http://user:password@host".
package basicauth

import (
	"encoding/base64"
	"net/url"
)

// FromUserinfo returns the field value "Basic " followed by the base64
// encoding of "user:password" (RFC 7617 §2; an empty password when u has
// none), or "" for a nil u. The user is not checked for a colon, which
// RFC 7617 does not allow in a user-id: the recipient splits at the
// first one.
func FromUserinfo(u *url.Userinfo) string {
	if u == nil {
		return ""
	}
	pw, _ := u.Password()
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(u.Username()+":"+pw))
}
