package server

import (
	"crypto/subtle"
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
	inner := csrf.Handler(s.requireToken(next))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w.Header())
		if s.opts.Token == "" && !loopbackHost(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, "host "+quote(r.Host)+" refused: without a token this server answers only to 127.0.0.1, [::1] or localhost (DNS rebinding protection)")
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// securityHeaders are set on every response. The value slices are shared
// and have no spare capacity, so an Add elsewhere copies rather than
// writing into them.
var securityHeaders = map[string][]string{
	"Content-Security-Policy":      {pageCSP},
	"X-Content-Type-Options":       {"nosniff"},
	"X-Frame-Options":              {"DENY"},
	"Referrer-Policy":              {"no-referrer"},
	"Cross-Origin-Opener-Policy":   {"same-origin"},
	"Cross-Origin-Resource-Policy": {"same-origin"},
	"Cache-Control":                {"no-store"},
}

func setSecurityHeaders(h http.Header) {
	for k, v := range securityHeaders {
		h[k] = v[:1:1]
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
		if public(r.URL.Path) || s.hasToken(r) {
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

// requirePage lets an answer through only from the page itself (a browser
// request the browser marks same-origin) or from a client holding the
// token. An agent's shell has neither a browser nor, off loopback, the
// token; on loopback the default policy denies its requests to loopback
// URLs (netguard).
func (s *Server) requirePage(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sameOrigin(r) || (s.opts.Token != "" && sameSecret(bearer(r), s.opts.Token)) {
			next.ServeHTTP(w, r)
			return
		}
		writeError(w, http.StatusForbidden, "approvals are answered from the toolguard page (same-origin browser request) or with the bearer token")
	})
}

// sameOrigin reports whether a browser said the request comes from this
// server's own page: Sec-Fetch-Site same-origin, or an Origin whose host is
// the request's Host.
func sameOrigin(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "same-origin" {
		return true
	}
	origin := r.Header.Get("Origin")
	if origin == "" || origin == "null" {
		return false
	}
	_, host, ok := strings.Cut(origin, "://")
	return ok && host == r.Host
}

// loopbackHost reports whether a Host header names this machine by a
// loopback address or "localhost".
func loopbackHost(hostport string) bool {
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
