package cli

import (
	"fmt"
	"testing"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/mcpproxy"
	"github.com/toolguard/toolguard/policy"
)

func TestConfiguredApprover(t *testing.T) {
	tests := []struct {
		approver, server string
		want             string
	}{
		{"none", "", "approval.None"},
		{"terminal", "", "*approval.Terminal"},
		{"server", "", "*mcpproxy.ServeApprover http://127.0.0.1:7878"},
		{"server", "http://10.0.0.2:7878", "*mcpproxy.ServeApprover http://10.0.0.2:7878"},
	}
	for _, tt := range tests {
		cfg := &policy.Config{Settings: policy.Settings{Approval: policy.Approval{Approver: tt.approver, Server: tt.server}}}
		p, err := policy.Compile(cfg, policy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%T", configuredApprover(p))
		if s, ok := configuredApprover(p).(*mcpproxy.ServeApprover); ok {
			got += " " + s.URL
		}
		if got != tt.want {
			t.Errorf("%s/%s: %s, want %s", tt.approver, tt.server, got, tt.want)
		}
	}
	// auto without a terminal (tests have none) and without a server denies.
	p, _ := policy.Compile(&policy.Config{}, policy.Options{})
	if a := configuredApprover(p); !hasTerminal() {
		if _, ok := a.(approval.None); !ok {
			t.Errorf("auto with nothing available: %T, want approval.None", a)
		}
	}
}
