package policy_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestCodeFromAnotherCommand: code that is the output of cat FILE is
// judged as the file's text (python3 -c "$(cat f)" as python3 f), a known
// program's completion script sourced is the execute tier, and anything
// else another command prints stays unverifiable (issue 24).
func TestCodeFromAnotherCommand(t *testing.T) {
	h := filepath.Join(t.TempDir(), "home")
	work := filepath.Join(h, "project")
	layCorpusFiles(t, h, []corpusFileSpec{
		{Path: "scripts/version.py", Content: "print(\"1.8.0\")\n"},
		{Path: "scripts/wipe.py", Content: "import os, shutil\nshutil.rmtree(os.path.expanduser(\"~\"))\n"},
		{Path: "scripts/test.sh", Content: "#!/bin/sh\ngo test ./...\n"},
		{Path: "scripts/tidy.sh", Content: "#!/bin/sh\nrm -rf ~/\n"},
	})
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeTrusted}}, policy.Options{Home: h})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd     string
		verdict risk.Verdict
		rule    string // "" for any
		names   string // a part of the reason
	}{
		{`python3 -c "$(cat scripts/version.py)"`, risk.Allow, "", ""},
		{`python3 -c "$(cat scripts/wipe.py)"`, risk.Deny, "paths.delete-home", "In scripts/wipe.py, line 2"},
		{`bash -c "$(cat scripts/test.sh)"`, risk.Allow, "", ""},
		{`bash -c "$(cat scripts/tidy.sh)"`, risk.Deny, "paths.delete-home", "In scripts/tidy.sh, line 2"},
		{`source <(cat scripts/tidy.sh)`, risk.Deny, "paths.delete-home", "scripts/tidy.sh"},
		{`eval "$(cat scripts/tidy.sh)"`, risk.Deny, "paths.delete-home", "scripts/tidy.sh"},
		// The file's text is judged, but the pack still asks for an eval of
		// a substitution: binding it makes eval no softer.
		{`eval "$(cat scripts/test.sh)"`, risk.Ask, "remote.shell-unknown-script", ""},
		{`eval $(cat scripts/test.sh)`, risk.Ask, "shell.unverifiable", "not static"},
		{`eval "$(cat scripts/test.sh)" x`, risk.Ask, "shell.unverifiable", "not static"},
		// $(<FILE) is bash's $(cat FILE).
		{`bash -c "$(<scripts/tidy.sh)"`, risk.Deny, "paths.delete-home", "In scripts/tidy.sh, line 2"},
		{`python3 -c "$(< scripts/version.py)"`, risk.Allow, "", ""},
		{`bash -c "$(<scripts/test.sh 2>/dev/null)"`, risk.Ask, "shell.unverifiable", "not static"},
		{`echo start && python3 -c "$(cat scripts/missing.py)"`, risk.Ask, "shell.unverifiable", "not static"},
		{`python3 -c "$(cat scripts/version.py scripts/wipe.py)"`, risk.Ask, "shell.unverifiable", "not static"},
		{`python3 -c "$(cat scripts/version.py | tr a b)"`, risk.Ask, "shell.unverifiable", "not static"},
		{`source <(kubectl completion bash)`, risk.Allow, "", ""},
		{`source <(gh completion -s zsh)`, risk.Allow, "", ""},
		{`source <(./bin/devtool completion bash)`, risk.Ask, "shell.unverifiable", "not static"},
		// PATH changed on the line: the name may be a shadow in the workspace.
		{`export PATH=./bin:$PATH; source <(kubectl completion bash)`, risk.Ask, "shell.unverifiable", "not static"},
		{`PATH="$PWD/node_modules/.bin:$PATH"; source <(gh completion -s bash)`, risk.Ask, "shell.unverifiable", "not static"},
		// A prefix of source itself is assigned after its words (the <(…))
		// are expanded: kubectl is looked up on the PATH as it was.
		{`PATH=./bin:$PATH source <(kubectl completion bash)`, risk.Allow, "", ""},
		{`read -r PATH <<< ./bin; source <(kubectl completion bash)`, risk.Ask, "shell.unverifiable", "not static"},
		{`hash -p ./bin/kubectl kubectl; source <(kubectl completion bash)`, risk.Ask, "shell.unverifiable", "not static"},
		{`export GOFLAGS=-mod=mod; source <(kubectl completion bash)`, risk.Allow, "", ""},
		{`source scripts/test.sh; source <(kubectl completion bash)`, risk.Ask, "shell.unverifiable", "not static"},
		{`kubectl() { rm -rf ~/; }; source <(kubectl completion bash)`, risk.Deny, "", ""},
		{`source <(kubectl get configmap x -o jsonpath='{.data.rc}')`, risk.Ask, "shell.unverifiable", "not static"},
		{`python3 -c "$(kubectl completion bash)"`, risk.Ask, "shell.unverifiable", "not static"},
	} {
		cl, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: bash(c.cmd), Cwd: work, Workspace: work})
		if err != nil {
			t.Fatal(err)
		}
		d := p.Decide(context.Background(), cl)
		if d.Verdict != c.verdict || c.rule != "" && d.Rule != c.rule || !strings.Contains(d.Reason, c.names) {
			t.Errorf("%s: %s %s: %s; want %s %s naming %q", c.cmd, d.Verdict, d.Rule, d.Reason, c.verdict, c.rule, c.names)
		}
	}
}
