package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// TestPathShadows: with ~/.local/bin and ~/.cargo/bin ahead of
// toolguard's ~/go/bin on the PATH, installing programs there is judged as
// replacing toolguard's binary, in every mode; /usr/bin, after it, is not
// (issue 30: pip install --user was allowed in trusted).
func TestPathShadows(t *testing.T) {
	path := []string{home + "/.local/bin", home + "/.cargo/bin", home + "/tools/bin", home + "/go/bin", "/usr/local/bin", "/usr/bin"}
	self := outcome{"deny", "self.protect"}
	for _, c := range []struct {
		cmd  string
		want outcome
	}{
		{"pip install --user httpie", self},
		{"pip3 install --user -r requirements.txt", self},
		{"PYTHONUSERBASE=/opt/py pip install --user x", outcome{"allow", "mode.full"}},
		{"pip install --prefix ~/tools x", self},
		{"pip install -r requirements.txt", outcome{"allow", "mode.full"}},
		{"pipx install black", self},
		{"uv tool install ruff", self},
		{"npm install -g --prefix ~/tools eslint", self},
		{"NPM_CONFIG_PREFIX=~/tools npm i -g eslint", self},
		{"npm install -g --prefix /usr eslint", outcome{"allow", "mode.full"}},
		{"cargo install ripgrep", self},
		{"cargo install --root ~/.local ripgrep", self},
		{"cargo install --root /usr/local ripgrep", outcome{"allow", "mode.full"}},
		{"gem install -n ~/.local/bin rake", self},
		{"cp build/tool ~/.local/bin/toolguard", outcome{"deny", "paths.self"}},
		{"ln -s /tmp/x ~/tools/bin/toolguard", outcome{"deny", "paths.self"}},
		{"cp build/toolguard ~/.cargo/bin/", outcome{"deny", "paths.self"}},
		{"go install example.com/cmd/toolguard@latest", self},
	} {
		p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeFull}},
			policy.Options{Home: home, Programs: []string{home + "/go/bin/toolguard"}, Path: path})
		if err != nil {
			t.Fatal(err)
		}
		got := decide(t, p, "Bash", bash(c.cmd))
		if got.Verdict == "deny" && c.want.Verdict == "allow" || got.Verdict != "deny" && c.want.Verdict == "deny" || got.Verdict == "deny" && !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.cmd, got, c.want)
		}
	}
	// Without a PATH nothing is judged a shadow.
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeFull})
	if got := decide(t, p, "Bash", bash("pip install --user httpie")); got.Verdict == "deny" {
		t.Errorf("no PATH known: %v", got)
	}
}

// TestGoInstallDestination: go install puts its program in ~/go/bin, where
// Go always puts programs: that write is judged for what the path rules
// protect, not against the workspace's bounds (go install ./cmd/tool was
// denied in every mode as a write outside the workspace); a directory the
// command chooses (GOBIN, GOPATH) is judged as any write is.
func TestGoInstallDestination(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want outcome
	}{
		{"go install ./cmd/tool", outcome{"allow", "mode.trusted"}},
		{"go install golang.org/x/tools/cmd/goimports@latest", outcome{"ask", "pkg.tool-install"}},
		{"GOBIN=/usr/local/bin go install ./cmd/tool", outcome{"deny", "paths.outside-workspace"}},
		{"GOBIN=" + home + "/.ssh go install ./cmd/tool", outcome{"deny", "paths.denied"}},
		{"GOPATH=" + home + "/project/.gopath go install ./cmd/tool", outcome{"allow", "mode.trusted"}},
		{"GOBIN=$(cat bin.txt) go install ./cmd/tool", outcome{"ask", "shell.unknown-path"}},
		{"GOBIN=$(mktemp -d) go install ./cmd/tool", outcome{"allow", "mode.trusted"}}, // under /tmp
		{"go install example.com/cmd/toolguard@latest", outcome{"deny", "self.protect"}},
	} {
		p := mustCompile(t, &policy.Settings{Mode: policy.ModeTrusted})
		if got := decide(t, p, "Bash", bash(c.cmd)); !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.cmd, got, c.want)
		}
	}
}
