package install

import (
	"encoding/json"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzJSONInstall: whatever a JSON settings file holds, install never
// panics, writes valid JSON, is idempotent, and uninstall removes the hook.
func FuzzJSONInstall(f *testing.F) {
	for _, s := range []string{`{}`, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
		`{"permissions":{"deny":["Read(~/.ssh/**)"]}}`, `{"hooks":{"beforeReadFile":[{"command":"toolguard hook cursor"}]},"version":1}`, `[]`, ``} {
		f.Add([]byte(s))
	}
	agents := []string{"claude-code", "codex", "gemini-cli", "cursor"}
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, agent := range agents {
			ed := targets[agent].edit
			out, err := ed.install(doc, "toolguard hook "+agent)
			if err != nil {
				continue
			}
			if !json.Valid(out) {
				t.Fatalf("%s: install wrote invalid JSON %q", agent, out)
			}
			checkRoundTrip(t, ed, agent, out)
		}
	})
}

// FuzzYAMLInstall is FuzzJSONInstall for docker-agent's YAML config.
func FuzzYAMLInstall(f *testing.F) {
	for _, s := range []string{"", "settings:\n  theme: dark\n", "settings:\n  hooks:\n    pre_tool_use: []\n", "# c\na: [1, 2]\n", "- x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		ed := targets["docker-agent"].edit
		out, err := ed.install(doc, "toolguard hook docker-agent")
		if err != nil {
			return
		}
		var n yaml.Node
		if err := yaml.Unmarshal(out, &n); err != nil {
			t.Fatalf("install wrote invalid YAML %q: %v", out, err)
		}
		checkRoundTrip(t, ed, "docker-agent", out)
	})
}

func checkRoundTrip(t *testing.T, ed editor, agent string, installed []byte) {
	t.Helper()
	again, err := ed.install(installed, "toolguard hook "+agent)
	if err != nil || string(again) != string(installed) {
		t.Fatalf("%s: second install changed %q into %q (%v)", agent, installed, again, err)
	}
	if cmd, missing, err := ed.status(installed); err != nil || len(missing) > 0 || cmd == "" {
		t.Fatalf("%s: status after install: %q %v %v", agent, cmd, missing, err)
	}
	removed, err := ed.uninstall(installed, nil)
	if err != nil {
		t.Fatalf("%s: uninstall: %v", agent, err)
	}
	if removed != nil {
		if cmd, _, _ := ed.status(removed); cmd != "" {
			t.Fatalf("%s: uninstall left %q in %q", agent, cmd, removed)
		}
	}
}
