package cli

import (
	"os"
	"strings"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/mcpproxy"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/server"
)

// configuredApprover builds who answers asks from [approval] approver:
// terminal, server (a running toolguard serve), none, or auto — the
// terminal when there is one, then the server when one is configured.
// With nothing available every ask is denied.
func configuredApprover(p *policy.Policy) approval.Approver {
	cfg := p.Config().Approval
	term := &approval.Terminal{Timeout: cfg.Timeout}
	switch cfg.Approver {
	case "none":
		return approval.None{}
	case "terminal":
		return term
	case "server":
		return serveApprover(cfg.Server)
	}
	var chain approval.First
	if hasTerminal() {
		chain = append(chain, term)
	}
	if cfg.Server != "" {
		chain = append(chain, serveApprover(cfg.Server))
	}
	if len(chain) == 0 {
		return approval.None{}
	}
	return chain
}

func serveApprover(url string) approval.Approver {
	if url == "" {
		url = "http://" + server.DefaultAddr
	}
	token := ""
	if file, err := server.DefaultTokenFile(); err == nil {
		if b, err := os.ReadFile(file); err == nil {
			token = strings.TrimSpace(string(b))
		}
	}
	return &mcpproxy.ServeApprover{URL: url, Token: token}
}

// hasTerminal reports whether a controlling terminal can be opened.
func hasTerminal() bool {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
