package cli

import (
	"log/slog"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/server"
)

// reloadServe loads the policy again, with the flags, files and
// environment serve started with, and makes srv enforce it (srv logs
// "policy reloaded" with the new hash and mode). A policy that fails to
// load or compile leaves the current one in force: the error, which names
// the file and line, is logged and returned. Calls waiting for a person
// are not disturbed either way.
func reloadServe(srv *server.Server, load func() (*policy.Policy, error), log *slog.Logger) error {
	p, err := load()
	if err == nil {
		err = srv.Reload(p)
	}
	if err != nil {
		log.Error("policy not reloaded; the current one stays in force", "err", err, "hash", srv.Policy().Hash())
	}
	return err
}
