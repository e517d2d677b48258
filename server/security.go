package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// pageCSP forbids everything but the page's own script, style and API:
// no inline script or style, no framing, no external assets.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// cookieName holds the token for the page (EventSource cannot send headers).
const cookieName = "toolguard_token"

// protect wraps every route: security headers, the Host check, the token
// and CSRF protection, in that order.
func (s *Server) protect(next http.Handler) http.Handler {
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusForbidden, "cross-origin request refused: state-changing requests must come from this server's own page or a non-browser client")
	}))
	plain := s.requireToken(next)
	inner := csrf.Handler(plain)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w.Header())
		if s.opts.Token == "" && !loopbackHost(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, "host "+quote(r.Host)+" refused: without a token this server answers only to 127.0.0.1, [::1] or localhost (DNS rebinding protection)")
			return
		}
		if notFromBrowser(r.Header) {
			plain.ServeHTTP(w, r) // what inner does: its check passes such a request
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// notFromBrowser reports whether a request carries neither Sec-Fetch-Site
// nor Origin, which http.CrossOriginProtection's Check lets through
// whatever the method ("either the request is same-origin or not a browser
// request"): an agent's client sends neither. The map is read by the
// canonical names directly; Header.Get canonicalised each name first,
// two thirds of the check's cost on every call of /v1/decide.
func notFromBrowser(h http.Header) bool {
	return firstValue(h, "Sec-Fetch-Site") == "" && firstValue(h, "Origin") == ""
}

// securityHeaders are set on every response (a table the linker lays out,
// not a map built at start-up). The value slices are shared and have no
// spare capacity, so an Add elsewhere copies rather than writing into them.
var securityHeaders = []struct {
	key   string
	value []string
}{
	{"Content-Security-Policy", []string{pageCSP}},
	{"X-Content-Type-Options", []string{"nosniff"}},
	{"X-Frame-Options", []string{"DENY"}},
	{"Referrer-Policy", []string{"no-referrer"}},
	{"Cross-Origin-Opener-Policy", []string{"same-origin"}},
	{"Cross-Origin-Resource-Policy", []string{"same-origin"}},
	{"Cache-Control", []string{"no-store"}},
}

func setSecurityHeaders(h http.Header) {
	for _, sh := range securityHeaders {
		h[sh.key] = sh.value[:1:1]
	}
}

// public paths need no token: the page shell and its assets hold no data,
// and /healthz is for probes.
func public(path string) bool {
	return path == "/" || path == "/healthz" || strings.HasPrefix(path, "/static/")
}

func (s *Server) requireToken(next http.Handler) http.Handler {
	if s.opts.Token == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if public(r.URL.Path) || s.hasToken(r) || s.hasKey(r) { // a person with the page key may use the API too
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="toolguard"`)
		writeError(w, http.StatusUnauthorized, "missing or wrong token: send \"Authorization: Bearer TOKEN\" (the token is in the token file printed at start)")
	})
}

// hasToken reports whether r carries the token in its Authorization header
// or the page's cookie. A server without a token accepts every request.
func (s *Server) hasToken(r *http.Request) bool {
	if s.opts.Token == "" {
		return false
	}
	return sameSecret(bearer(r), s.opts.Token) || sameSecret(cookieValue(r), s.opts.Token)
}

func bearer(r *http.Request) string {
	v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(v)
}

func cookieValue(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	return c.Value
}

func sameSecret(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// requireKey lets a request through only with the page key (the page's
// cookie, or "Authorization: Bearer KEY"): listing and answering
// approvals and the event feed are for a person. Headers a program can
// forge (Sec-Fetch-Site, Origin, Host) prove nothing; the key is shown
// only to whoever started the server, in the token mode it is the token
// (a file the policy denies agents), and the policy denies agents'
// requests to the server whatever the spelling (self.approve).
func (s *Server) requireKey(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.hasKey(r) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="toolguard"`)
		writeError(w, http.StatusUnauthorized, "approvals and events are for a person: open the page at the address toolguard serve printed (it carries the key), or send \"Authorization: Bearer KEY\"")
	})
}

// hasKey reports whether r carries the page key in its Authorization
// header or the page's cookie.
func (s *Server) hasKey(r *http.Request) bool {
	return sameSecret(bearer(r), s.key) || sameSecret(cookieValue(r), s.key)
}

// PageKey is the secret that lists and answers approvals (see
// [Options.PageKey]); serve prints the page's address with it.
func (s *Server) PageKey() string { return s.key }

// pageKey is Options.PageKey, else the token, else a new random key.
func pageKey(opts Options) (string, error) {
	switch {
	case opts.PageKey != "":
		if len(opts.PageKey) < minTokenLen {
			return "", fmt.Errorf("Options.PageKey has %d characters; a key needs at least %d", len(opts.PageKey), minTokenLen)
		}
		return opts.PageKey, nil
	case opts.Token != "":
		return opts.Token, nil
	}
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return "", fmt.Errorf("generate the page key: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(buf[:]), nil
}

// loopbackHost reports whether a Host header names this machine by a
// loopback address or "localhost".
func loopbackHost(hostport string) bool {
	if port, ok := strings.CutPrefix(hostport, "127.0.0.1"); ok && (port == "" || port[0] == ':' && allDigits(port[1:])) {
		// What agents' clients send: loopbackHostParsed's answer without
		// the split, the trims and the address parse (~850 instructions
		// a request).
		return true
	}
	return loopbackHostParsed(hostport)
}

// allDigits reports whether s is ASCII digits only (or empty).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// loopbackHostParsed is loopbackHost for every form of host and port.
func loopbackHostParsed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopbackAddr reports whether a listen address (host:port) binds only
// loopback interfaces; an empty host (all interfaces) is not loopback.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return loopbackHost(host)
}

func quote(s string) string { return "\"" + s + "\"" }
