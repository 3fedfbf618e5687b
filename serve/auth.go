package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// MinTokenLen is the shortest token RunHTTP accepts, in bytes: 16 hex
// digits less than the 128 bits jobdeck's own tokens have, so that a
// hand-picked JOBDECK_TOKEN is not a guessable word either.
const MinTokenLen = 16

// ErrBadToken is returned for a token RunHTTP cannot use: too short, or
// with bytes other than printable ASCII without space.
var ErrBadToken = errors.New("unusable token")

// CheckToken reports whether tok can be an HTTP bearer token: at least
// MinTokenLen bytes of printable ASCII, no spaces (a header value and a
// query parameter carry it unchanged). The error wraps ErrBadToken and
// says what to give instead.
func CheckToken(tok string) error {
	if len(tok) < MinTokenLen {
		return fmt.Errorf("%w: it is %d bytes; give at least %d (e.g. the output of: openssl rand -hex 32)", ErrBadToken, len(tok), MinTokenLen)
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; c <= ' ' || c > '~' {
			return fmt.Errorf("%w: byte %d is not printable ASCII (or is a space); use letters, digits and punctuation only", ErrBadToken, i+1)
		}
	}
	return nil
}

// bearer is the HTTP token check. It keeps only the token's SHA-256, and
// compares digests in constant time, so that neither the time a check
// takes nor its length says anything about the token.
type bearer struct {
	sum [sha256.Size]byte
}

func newBearer(token string) *bearer {
	return &bearer{sum: sha256.Sum256([]byte(token))}
}

// tokenParam is the query parameter that may carry the token, for
// clients that cannot send headers.
const tokenParam = "token"

// allows reports whether r carries the token: in an Authorization header
// ("Bearer <token>"), or else in the token query parameter.
func (b *bearer) allows(r *http.Request) bool {
	var given string
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, rest, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return false
		}
		given = strings.TrimSpace(rest)
	} else if r.URL.RawQuery != "" {
		given = r.URL.Query().Get(tokenParam)
	}
	sum := sha256.Sum256([]byte(given))
	return subtle.ConstantTimeCompare(sum[:], b.sum[:]) == 1 && given != ""
}

// require passes on the requests that carry the token, with the token
// taken out of the URL (so that nothing below can log it), and refuses
// every other one with 401 as soon as its headers are read, closing its
// connection without reading its body (refuseAndClose).
func (b *bearer) require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !b.allows(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="jobdeck"`)
			refuseAndClose(w, "jobdeck: this server needs its token: send the header Authorization: Bearer <token> "+
				"(or add ?token=<token> to the URL); the token is $JOBDECK_TOKEN, or the file jobdeck named on stderr when it started",
				http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, withoutToken(r))
	})
}

// withoutToken returns r with the token query parameter removed from its
// URL and RequestURI (r itself is not changed).
func withoutToken(r *http.Request) *http.Request {
	if !strings.Contains(r.URL.RawQuery, tokenParam) {
		return r
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		q = url.Values{} // unparsable: drop it all
	}
	q.Del(tokenParam)
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	u.RawQuery = q.Encode()
	r2.URL = &u
	r2.RequestURI = u.RequestURI()
	return r2
}
