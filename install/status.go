package install

import (
	"github.com/toolguard/toolguard/hook"
)

// AgentStatus says whether toolguard's hook is in one settings file.
type AgentStatus struct {
	// Agent and Scope name the settings file; File is its path.
	Agent string
	Scope Scope
	File  string
	// Exists is false when the file is absent.
	Exists bool
	// Installed is true when every event toolguard registers for runs it.
	Installed bool
	// Command is the registered hook command; empty when none.
	Command string
	// Missing lists the events that lack the hook (all of them when the
	// hook is absent).
	Missing []string
	// Err is set when the file cannot be read or parsed.
	Err error
}

// Status reports, for every agent and scope, whether toolguard's hook is
// installed, reading the settings files under home and project.
func Status(home, project string) []AgentStatus {
	return StatusOf(Options{Home: home, Project: project})
}

// StatusOf is Status for the settings files opts names (its Home,
// Project and DockerConfigDir).
func StatusOf(opts Options) []AgentStatus {
	var out []AgentStatus
	for _, agent := range hook.Agents() {
		for _, scope := range []Scope{User, Project} {
			if s, ok := statusOf(agent, scope, opts); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func statusOf(agent string, scope Scope, opts Options) (AgentStatus, bool) {
	s := AgentStatus{Agent: agent, Scope: scope}
	var err error
	if s.File, err = File(agent, scope, opts); err != nil {
		return s, false
	}
	doc, err := readOptional(s.File)
	s.Exists = doc != nil
	if err != nil || doc == nil {
		s.Err = err
		return s, true
	}
	s.Command, s.Missing, s.Err = targets[agent].edit.status(doc)
	s.Installed = s.Err == nil && len(s.Missing) == 0
	return s, true
}
