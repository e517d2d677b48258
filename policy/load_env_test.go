package policy_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// TOOLGUARD_SECTION__KEY variables are layers of their own; the config
// file's path and the retired relay's switches are not settings and are
// skipped (an unknown key would otherwise fail every load).
func TestEnvironmentLayers(t *testing.T) {
	environ := []string{
		"TOOLGUARD_MODE=strict",
		"TOOLGUARD_PATHS__DENIED=[\"/srv/**\"]",
		"TOOLGUARD_CONFIG=/etc/toolguard.toml",
		"TOOLGUARD_RELAY=off",
		"TOOLGUARD_SANDBOX_RUN=1234-abcd",
		"TOOLGUARD_RELAY_DIR=/run/tg",
		"TOOLGUARD_RELAY_IDLE=1m",
		"TOOLGUARD_RELAY_TRACE=1",
		"TOOLGUARD_UNATTENDED=", // empty: ignored
		"HOME=/home/ada",
	}
	loaded, err := policy.Load(policy.LoadOptions{Environ: environ})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	got := []any{loaded.Config.Mode, loaded.Config.Paths.Denied, loaded.Config.Unattended, loaded.Files}
	want := []any{"strict", []string{"/srv/**"}, false, []string{"$TOOLGUARD_MODE", "$TOOLGUARD_PATHS__DENIED"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("[mode, denied, unattended, layers] (-want +got):\n%s", diff)
	}
	_, err = policy.Load(policy.LoadOptions{Environ: []string{"TOOLGUARD_RELAYS=on"}})
	if err == nil || !strings.Contains(err.Error(), "$TOOLGUARD_RELAYS") {
		t.Errorf("an unknown TOOLGUARD_ variable: error %v, want one naming $TOOLGUARD_RELAYS", err)
	}
}
