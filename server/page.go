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
var webRoot, _ = fs.Sub(webFiles, "web")

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	http.ServeFileFS(w, r, webRoot, "index.html")
}

func staticHandler() http.Handler {
	return http.StripPrefix("/static/", http.FileServerFS(webRoot))
}

// policyInfo is the reply of GET /v1/policy.
type policyInfo struct {
	Mode            string `json:"mode"`
	Summary         string `json:"summary"`
	ApprovalTimeout int    `json:"approval_timeout_seconds"`
	TokenRequired   bool   `json:"token_required"`
}

func (s *Server) handlePolicy(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, policyInfo{
		Mode: s.policy.Mode(), Summary: s.policy.Summary(),
		ApprovalTimeout: int(s.broker.Timeout() / time.Second), TokenRequired: s.opts.Token != "",
	})
}

// handleLogin turns a valid bearer token (checked by requireToken) into an
// HttpOnly, SameSite=Strict cookie, because EventSource cannot send
// headers.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token == "" {
		writeJSON(w, http.StatusOK, map[string]bool{"token_required": false})
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: s.opts.Token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	writeJSON(w, http.StatusOK, map[string]bool{"token_required": true})
}
