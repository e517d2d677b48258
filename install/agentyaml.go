package install

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolguard/toolguard/hook"
)

// AgentYAMLHook is toolguard's entry (or its absence) in one agent of a
// docker-agent agent YAML, the only place docker-agent up to v1.32.3 loads
// hooks from (agents.<name>.hooks.pre_tool_use).
type AgentYAMLHook struct {
	File, Agent string
	// Command is toolguard's hook command; empty when the agent has none.
	Command string
	// RunsAsks is true when the command has --agent-runs-asks: those
	// versions run a call whose hook answers ask, so the hook must deny it.
	RunsAsks bool
	// Preempt is true when the entry has preempt_yolo, which those
	// versions refuse (the whole file fails to load).
	Preempt bool
}

// AgentYAMLHooks reads an agent YAML and reports, for every agent in it,
// toolguard's pre_tool_use entry. A file without a top-level agents
// mapping is not an agent YAML: nil, nil.
func AgentYAMLHooks(file string) ([]AgentYAMLHook, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	doc, err := parseYAML(b)
	if err != nil {
		return nil, err
	}
	agents := mapGet(doc.Content[0], "agents")
	if agents == nil || agents.Kind != yaml.MappingNode {
		return nil, nil
	}
	var out []AgentYAMLHook
	for i := 0; i+1 < len(agents.Content); i += 2 {
		h := AgentYAMLHook{File: file, Agent: agents.Content[i].Value}
		seq := lookup(agents.Content[i+1], []string{"hooks", "pre_tool_use"})
		if entry, handler := findEntry(seq); handler != nil {
			h.Command = mapGet(handler, "command").Value
			h.RunsAsks = slices.Contains(strings.Fields(h.Command), hook.AgentRunsAsksFlag)
			h.Preempt = preempts(entry)
		}
		out = append(out, h)
	}
	return out, nil
}

// AgentYAMLFiles lists the YAML files directly in dir that are docker-agent
// agent YAMLs (a top-level agents mapping).
func AgentYAMLFiles(dir string) []string {
	var out []string
	for _, pat := range []string{"*.yaml", "*.yml"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range m {
			if hooks, err := AgentYAMLHooks(f); err == nil && hooks != nil {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out
}

// DockerAgentConfigDirEnv names the variable that moves docker-agent's
// configuration directory (~/.config/cagent by default).
const DockerAgentConfigDirEnv = "DOCKER_AGENT_CONFIG_DIR"
