//go:build !unix

package cli

import (
	"log/slog"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/server"
)

// watchReload does nothing where there is no SIGHUP: restart serve to
// load a changed policy.
func watchReload(*server.Server, func() (*policy.Policy, error), *slog.Logger) (stop func()) {
	return func() {}
}
