package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// TestExistingUserFile: ExistingUserFile names the candidate UserFile
// chooses when one exists and "" when none does, when UserFile falls back
// to policy.toml.
func TestExistingUserFile(t *testing.T) {
	cases := []struct {
		present      []string
		want, exists string
	}{
		{nil, "policy.toml", ""},
		{[]string{"policy.yaml"}, "policy.yaml", "policy.yaml"},
		{[]string{"policy.json", "policy.yml"}, "policy.yml", "policy.yml"},
		{[]string{"policy.json", "policy.toml"}, "policy.toml", "policy.toml"},
		{[]string{"policy.txt"}, "policy.toml", ""},
	}
	for i, tc := range cases {
		cfg := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", cfg)
		dir := filepath.Join(cfg, "toolguard")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, name := range tc.present {
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if got := policy.UserFile(); got != filepath.Join(dir, tc.want) {
			t.Errorf("%d: UserFile() = %q, want %q", i, got, filepath.Join(dir, tc.want))
		}
		want := ""
		if tc.exists != "" {
			want = filepath.Join(dir, tc.exists)
		}
		if got := policy.ExistingUserFile(); got != want {
			t.Errorf("%d: ExistingUserFile() = %q, want %q", i, got, want)
		}
	}
}
