package middleware

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"strings"

	"github.com/brisk-http/brisk"
	"github.com/brisk-http/brisk/internal/ascii"
)

// ErrUnauthorized is the error BasicAuth gives the ErrorHandler with its
// 401.
var ErrUnauthorized = errors.New("middleware: missing or wrong credentials")

// maxCredentials is the longest "user:password" BasicAuth decodes, in
// bytes; longer credentials are refused.
const maxCredentials = 512

// BasicAuth returns a middleware that lets through only requests with
// the "Basic" credentials (RFC 7617) of one of users, a map from user-id
// to password. It compares SHA-256 digests of the user-id and password
// with crypto/subtle, visiting every user, so the time taken does not
// tell how much of a guess was right nor which users exist. Other
// requests are answered 401 through Ctx.Error (ErrUnauthorized) with
// WWW-Authenticate: Basic realm="realm", charset="UTF-8" (RFC 7617 §2.1),
// without calling next. BasicAuthUser gives next the user-id. realm must
// not contain '"' or '\'; users is copied. Send credentials over TLS
// only: Basic sends the password in the clear.
func BasicAuth(realm string, users map[string]string) brisk.Middleware {
	if strings.ContainsAny(realm, "\"\\") {
		panic("middleware: BasicAuth realm with a quote or backslash")
	}
	challenge := `Basic realm="` + realm + `", charset="UTF-8"`
	type cred struct {
		user    string
		userSum [32]byte
		passSum [32]byte
	}
	creds := make([]cred, 0, len(users))
	for u, p := range users {
		creds = append(creds, cred{user: u, userSum: sha256.Sum256([]byte(u)), passSum: sha256.Sum256([]byte(p))})
	}
	return func(next brisk.Handler) brisk.Handler {
		return func(c *brisk.Ctx) {
			var buf [maxCredentials]byte
			user, pass, ok := parseBasic(c.Request.Header.Get("Authorization"), buf[:])
			match := -1
			if ok {
				us, ps := sha256.Sum256(user), sha256.Sum256(pass)
				for i := range creds {
					u := subtle.ConstantTimeCompare(us[:], creds[i].userSum[:])
					p := subtle.ConstantTimeCompare(ps[:], creds[i].passSum[:])
					if u&p == 1 {
						match = i
					}
				}
			}
			if match < 0 {
				c.Error(401, ErrUnauthorized)
				c.Response.Header.Set("WWW-Authenticate", challenge)
				return
			}
			userKey.Set(c, &creds[match].user)
			next(c)
		}
	}
}

// userKey holds the user-id BasicAuth authenticated.
var userKey = brisk.NewKey[*string]("middleware.BasicAuth user")

// BasicAuthUser returns the user-id BasicAuth let the request c through
// with, "" when it did not run.
func BasicAuthUser(c *brisk.Ctx) string {
	if u, ok := userKey.Get(c); ok {
		return *u
	}
	return ""
}

// parseBasic decodes the Authorization value "Basic <base64>" (scheme
// case-insensitive, RFC 9110 §11.1) into buf and splits it at the first
// colon (RFC 7617 §2).
func parseBasic(v, buf []byte) (user, pass []byte, ok bool) {
	const scheme = "basic "
	if len(v) < len(scheme) || !ascii.EqualFold(v[:len(scheme)], scheme) {
		return nil, nil, false
	}
	enc := v[len(scheme):]
	for len(enc) > 0 && enc[0] == ' ' {
		enc = enc[1:]
	}
	if base64.StdEncoding.DecodedLen(len(enc)) > len(buf) {
		return nil, nil, false
	}
	n, err := base64.StdEncoding.Decode(buf, enc)
	if err != nil {
		return nil, nil, false
	}
	dec := buf[:n]
	for i, b := range dec {
		if b == ':' {
			return dec[:i], dec[i+1:], true
		}
	}
	return nil, nil, false
}
