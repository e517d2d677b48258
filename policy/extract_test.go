package policy_test

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestExtractionIntoHookSettings: extracting an archive that holds an
// agent's hook settings is paths.self in every mode, naming the file; one
// that holds only sources is not (issue 30).
func TestExtractionIntoHookSettings(t *testing.T) {
	h := filepath.Join(t.TempDir(), "home")
	work := filepath.Join(h, "project")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	tgz := func(name string, members ...string) {
		f, err := os.Create(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		gz := gzip.NewWriter(f)
		tw := tar.NewWriter(gz)
		for _, m := range members {
			if err := tw.WriteHeader(&tar.Header{Name: m, Mode: 0o644, Size: 2, Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			if _, err := tw.Write([]byte("{}")); err != nil {
				t.Fatal(err)
			}
		}
		tw.Close()
		gz.Close()
		f.Close()
	}
	tgz("evil.tgz", "src/main.go", ".claude/settings.local.json")
	tgz("release.tgz", "src/main.go", "README.md")
	for _, mode := range []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull} {
		p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: mode}}, policy.Options{Home: h})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			cmd  string
			deny bool
		}{
			{"tar xzf evil.tgz", true},
			{"tar -xzf release.tgz", false},
		} {
			cl, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: bash(c.cmd), Cwd: work, Workspace: work})
			if err != nil {
				t.Fatal(err)
			}
			d := p.Decide(context.Background(), cl)
			if got := d.Verdict == risk.Deny && d.Rule == "paths.self"; got != c.deny {
				t.Errorf("%s [%s]: %s %s: %s", c.cmd, mode, d.Verdict, d.Rule, d.Reason)
			}
		}
	}
}
