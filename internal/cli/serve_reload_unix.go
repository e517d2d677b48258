//go:build unix

package cli

import (
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/server"
)

// watchReload reloads serve's policy (reloadServe) on every SIGHUP until
// the returned function is called.
func watchReload(srv *server.Server, load func() (*policy.Policy, error), log *slog.Logger) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-hup:
				_ = reloadServe(srv, load, log)
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
		<-finished
	}
}
