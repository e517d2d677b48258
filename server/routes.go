package server

import (
	"net/http"
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/decide", s.handleDecide)
	mux.HandleFunc("POST /v1/authorize", s.handleAuthorize)
	mux.HandleFunc("POST /v1/hooks/{agent}", s.handleHook)
	mux.Handle("GET /v1/events", s.requireKey(s.handleEvents))
	mux.Handle("GET /v1/approvals", s.requireKey(s.handleListApprovals))
	mux.Handle("GET /v1/decisions", s.requireKey(s.handleDecisions))
	mux.Handle("POST /v1/approvals/{id}", s.requireKey(s.handleAnswer))
	mux.Handle("GET /v1/grants", s.requireKey(s.handleGrants))
	mux.Handle("DELETE /v1/grants/{id}", s.requireKey(s.handleRevokeGrant))
	mux.HandleFunc("GET /v1/policy", s.handlePolicy)
	mux.HandleFunc("POST /v1/login", s.handleLogin)
	mux.HandleFunc("GET /healthz", handleHealth)
	mux.Handle("GET /metrics", s.metrics)
	mux.HandleFunc("GET /{$}", s.handlePage)
	mux.Handle("GET /static/", staticHandler())
	mux.HandleFunc("/", handleNotFound)
	return s.protect(mux)
}

func handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func handleNotFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path+" (see docs/server.md for the API)")
}
