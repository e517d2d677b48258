package server

import (
	"embed"
	"io/fs"
	"net/http"
	"time"
)

//go:embed web
var webFiles embed.FS

// webRoot is the embedded page: index.html, app.js and style.css.
func webRoot() fs.FS {
	root, _ := fs.Sub(webFiles, "web")
	return root
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	http.ServeFileFS(w, r, webRoot(), "index.html")
}

func staticHandler() http.Handler {
	return http.StripPrefix("/static/", http.FileServerFS(webRoot()))
}

// policyInfo is the reply of GET /v1/policy.
type policyInfo struct {
	Mode string `json:"mode"`
	// Hash identifies the policy in force (policy.Policy.Hash); it changes
	// when a reload changes a setting.
	Hash            string `json:"hash"`
	Summary         string `json:"summary"`
	ApprovalTimeout int    `json:"approval_timeout_seconds"`
	TokenRequired   bool   `json:"token_required"`
}

func (s *Server) handlePolicy(w http.ResponseWriter, _ *http.Request) {
	p := s.Policy()
	writeJSON(w, http.StatusOK, policyInfo{
		Mode: p.Mode(), Hash: p.Hash(), Summary: p.Summary(),
		ApprovalTimeout: int(s.broker.Timeout() / time.Second), TokenRequired: s.opts.Token != "",
	})
}

// handleLogin turns a valid page key (the token in the token mode) sent as
// a bearer header into an HttpOnly, SameSite=Strict cookie, because
// EventSource cannot send headers.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	if !sameSecret(bearer(r), s.key) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="toolguard"`)
		writeError(w, http.StatusUnauthorized, "wrong key: open the page at the address toolguard serve printed (it carries the key)")
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: s.key, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	writeJSON(w, http.StatusOK, map[string]bool{"token_required": s.opts.Token != ""})
}
