package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/internal/xdg"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/sandbox"
	"github.com/toolguard/toolguard/state"
)

// Exit statuses of `toolguard exec --wrapped` when the command cannot be
// started, as a shell gives them.
const (
	exitCannotExecute = 126
	exitNotFound      = 127
)

// runWrapped runs a command an agent's hook allowed and rewrote to run
// here: no second decision (the hook made and recorded it), the Agent
// profile of the sandbox, and the process itself replaced by the command,
// so that its pid, streams, signals, exit status and background jobs are
// what the agent would have had. It returns only when the command could
// not be started.
func runWrapped(a *app, pf *policyFlags, ef *execFlags, args []string) error {
	wd := pf.workdir()
	ws := firstNonEmpty(ef.workspace, wd)
	p, err := pf.load(ws)
	if err != nil {
		fmt.Fprintf(a.io.Stderr, "toolguard: the command was to run contained, but the policy cannot be read, so it did not run: %v\n", err)
		return exitWith(exitCannotExecute)
	}
	hidden := ownFiles()
	if pf.config != "" {
		hidden = append(hidden, pf.config)
	}
	if dir, err := state.Dir(); err == nil { // the fleet key, wherever [state] key_file puts it
		hidden = append(hidden, guard.FleetKeyFile(p.Config().State, dir))
	}
	spec := wrappedSpec(p, ef, args, wd, ws, hidden)
	if dir, err := state.Dir(); err == nil && os.MkdirAll(dir, 0o700) == nil {
		spec.SearchCache, spec.SearchKey = filepath.Join(dir, "secret-search.cache"), p.Hash()
	}
	err = sandbox.Exec(spec)
	fmt.Fprintln(a.io.Stderr, "toolguard:", wrappedFailure(err))
	switch {
	case errors.Is(err, sandbox.ErrNotFound):
		return exitWith(exitNotFound)
	}
	return exitWith(exitCannotExecute)
}

// wrappedSpec is the Agent profile for args with the policy's secrets and
// toolguard's own files out of reach.
func wrappedSpec(p *policy.Policy, ef *execFlags, args []string, wd, ws string, hidden []string) sandbox.Spec {
	cfg := p.Config().Sandbox
	backend := sandbox.Auto
	if cfg.Backend == string(sandbox.None) {
		backend = sandbox.None
	}
	protected := hook.WorkspaceSettings(ws)
	for _, f := range policy.ProjectFiles() {
		top, _, _ := strings.Cut(f, "/")
		if p := filepath.Join(ws, top); !slices.Contains(protected, p) {
			protected = append(protected, p)
		}
	}
	return sandbox.Spec{
		Argv: args, Dir: wd, Workspace: ws, Profile: sandbox.Agent, Backend: backend,
		Protected:    protected,
		Require:      backend != sandbox.None,
		AllowNetwork: true,
		Passthrough:  append(append([]string(nil), cfg.EnvPassthrough...), ef.passthrough...),
		ReadWrite:    ef.writePaths,
		Secret:       p.Unreadable,
		Hidden:       hidden,
	}
}

// ownFiles are toolguard's configuration, state and data directories and
// the agents' own login files, which a contained command can neither read
// nor change.
func ownFiles() []string {
	var out []string
	if dir, err := state.Dir(); err == nil {
		out = append(out, dir)
	}
	out = append(out, filepath.Dir(policy.UserFile()))
	if dir, err := xdg.Dir("XDG_DATA_HOME", filepath.Join(".local", "share")); err == nil {
		out = append(out, filepath.Join(dir, "toolguard"))
	}
	if f := os.Getenv("TOOLGUARD_CONFIG"); f != "" {
		out = append(out, f)
	}
	if home, err := os.UserHomeDir(); err == nil {
		for _, f := range hook.CredentialFiles() {
			out = append(out, filepath.Join(home, strings.TrimPrefix(f, "~/")))
		}
	}
	return out
}

// wrappedFailure says why a wrapped command did not start, and what to do.
func wrappedFailure(err error) string {
	switch {
	case errors.Is(err, sandbox.ErrNotFound), errors.Is(err, sandbox.ErrNotExecutable):
		return err.Error()
	}
	return fmt.Sprintf("the command was to run contained ([sandbox] wrap), but the sandbox could not be set up, so it did not run: %v (toolguard doctor shows what this machine offers; set [sandbox] wrap = \"off\" to run commands uncontained)", err)
}
