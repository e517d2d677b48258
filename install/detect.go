package install

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/toolguard/toolguard/hook"
)

// Presence says whether an agent is installed on this machine, and why
// toolguard thinks so.
type Presence struct {
	Agent string
	// Found is true when the agent's program is on PATH or its
	// configuration directory exists in the home directory.
	Found bool
	// Why names the program or directory found, or what was looked for.
	Why string
}

// agentMarks are, per agent, the programs and the configuration
// directories (relative to home) that show it is installed.
var agentMarks = map[string]struct{ programs, dirs []string }{
	hook.ClaudeCode:  {[]string{"claude"}, []string{".claude"}},
	hook.Codex:       {[]string{"codex"}, []string{".codex"}},
	hook.GeminiCLI:   {[]string{"gemini"}, []string{".gemini"}},
	hook.Cursor:      {[]string{"cursor-agent", "cursor"}, []string{".cursor"}},
	hook.DockerAgent: {[]string{"docker-agent", "cagent"}, []string{".config/cagent"}},
	hook.Copilot:     {[]string{"copilot"}, []string{".copilot"}},
	hook.OpenCode:    {[]string{"opencode"}, []string{".config/opencode"}},
	hook.Kilo:        {[]string{"kilo", "kilocode"}, []string{".config/kilo"}},
	hook.QwenCode:    {[]string{"qwen"}, []string{".qwen"}},
	hook.Cline:       {[]string{"cline"}, []string{".cline"}},
	hook.Droid:       {[]string{"droid"}, []string{".factory"}},
}

// LookPath finds programs for Detect; tests replace it.
var LookPath = exec.LookPath

// Detect reports, for every supported agent in hook.Agents order, whether
// it is installed: its program on PATH, or its configuration directory
// under home.
func Detect(home string) []Presence {
	var out []Presence
	for _, agent := range hook.Agents() {
		m := agentMarks[agent]
		p := Presence{Agent: agent, Why: "no " + m.programs[0] + " on PATH and no ~/" + m.dirs[0]}
		for _, prog := range m.programs {
			if path, err := LookPath(prog); err == nil {
				p.Found, p.Why = true, path
				break
			}
		}
		if !p.Found {
			for _, d := range m.dirs {
				if fi, err := os.Stat(filepath.Join(home, d)); err == nil && fi.IsDir() {
					p.Found, p.Why = true, "~/"+d
					break
				}
			}
		}
		out = append(out, p)
	}
	return out
}
