package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/state"
)

// policyFlags are the flags every deciding command shares (Aar's flags
// included).
type policyFlags struct {
	config          string
	mode            string
	profile         string
	cwd             string
	readOnly        bool
	requireApproval bool
	noRequire       bool
	restrict        bool
	noRestrict      bool
	unattended      bool
	deniedPaths     []string
	allowedPaths    []string
	noUser          bool
	noProject       bool
	// ignored are the project policy's settings the last load dropped
	// (policy.Loaded.Ignored); files are the files it read.
	ignored []error
	files   []string
}

func addPolicyFlags(cmd *cobra.Command) *policyFlags {
	f := &policyFlags{}
	fl := cmd.Flags()
	fl.StringVar(&f.config, "config", os.Getenv("TOOLGUARD_CONFIG"), "policy file (TOML, YAML or JSON) layered over the user policy")
	fl.StringVar(&f.mode, "mode", "", "mode: "+strings.Join(policy.Modes(), ", ")+" (overrides the config)")
	fl.StringVar(&f.profile, "profile", "", "use the named profile of the policy")
	fl.StringVar(&f.cwd, "cwd", "", "working directory and workspace of the call (default: the current directory)")
	fl.BoolVar(&f.readOnly, "read-only", false, "allow only reads")
	fl.BoolVar(&f.requireApproval, "require-approval", false, "ask before writes and commands")
	fl.BoolVar(&f.noRequire, "no-require-approval", false, "do not ask before writes and commands (denies still apply)")
	fl.BoolVar(&f.restrict, "restrict-to-cwd", false, "deny writes outside the workspace")
	fl.BoolVar(&f.noRestrict, "no-restrict-to-cwd", false, "judge writes outside the workspace by write_outside instead")
	fl.BoolVar(&f.unattended, "unattended", false, "no person can answer: every ask becomes deny")
	fl.StringSliceVar(&f.deniedPaths, "denied-paths", nil, "extra denied path globs (comma-separated; added to the defaults)")
	fl.StringSliceVar(&f.allowedPaths, "allowed-paths", nil, "the only path globs outside the workspace that may be touched (comma-separated)")
	fl.BoolVar(&f.noUser, "no-user-config", false, "ignore the user policy file")
	fl.BoolVar(&f.noProject, "no-project-config", false, "ignore a project policy file in the workspace")
	return f
}

// sandboxArgs are the flags given to this process that decide what a
// contained command may reach, for the exec --wrapped that runs it: the
// same policy files and denied paths.
func (f *policyFlags) sandboxArgs() []string {
	var out []string
	if f.config != "" {
		out = append(out, "--config", f.config)
	}
	if f.noUser {
		out = append(out, "--no-user-config")
	}
	if f.noProject {
		out = append(out, "--no-project-config")
	}
	for _, d := range f.deniedPaths {
		out = append(out, "--denied-paths", d)
	}
	return out
}

// ownArgs are the flags given to this process that set its policy, as
// words: an agent's toolguard exec or mcp command line passing the same
// ones (as the exec --wrapped of [sandbox] wrap does) loosens nothing
// (policy.Options.GuardArgs).
func (f *policyFlags) ownArgs() []string {
	out := f.sandboxArgs()
	if f.mode != "" {
		out = append(out, "--mode", f.mode)
	}
	if f.profile != "" {
		out = append(out, "--profile", f.profile)
	}
	if f.noRequire {
		out = append(out, "--no-require-approval")
	}
	if f.noRestrict {
		out = append(out, "--no-restrict-to-cwd")
	}
	if len(f.allowedPaths) > 0 {
		out = append(out, "--allowed-paths", strings.Join(f.allowedPaths, ","))
	}
	return out
}

// apply expresses the flags as the last configuration layer.
func (f *policyFlags) apply(c *policy.Config) {
	if f.mode != "" {
		c.Mode, c.ReadOnly, c.ApprovalMode, c.Autonomy = f.mode, false, "", ""
	}
	if f.readOnly {
		c.ReadOnly = true
	}
	if f.requireApproval || f.noRequire {
		v := f.requireApproval && !f.noRequire
		c.RequireApprovalForWrites, c.RequireApprovalForExecute = &v, &v
	}
	if f.restrict || f.noRestrict {
		v := f.restrict && !f.noRestrict
		c.Paths.WorkspaceOnly = &v
	}
	if f.unattended {
		c.Unattended = true
	}
	c.Paths.Denied = append(c.Paths.Denied, f.deniedPaths...)
	if len(f.allowedPaths) > 0 {
		c.Paths.Allowed = f.allowedPaths
	}
}

func (f *policyFlags) validate() error {
	if f.mode != "" {
		if _, err := policy.Preset(f.mode); err != nil {
			return fmt.Errorf("--mode: %w", err)
		}
	}
	if f.requireApproval && f.noRequire {
		return fmt.Errorf("--require-approval and --no-require-approval contradict each other")
	}
	if f.restrict && f.noRestrict {
		return fmt.Errorf("--restrict-to-cwd and --no-restrict-to-cwd contradict each other")
	}
	return nil
}

// workdir is the call's working directory: --cwd or the process's.
func (f *policyFlags) workdir() string {
	if f.cwd != "" { // absolute: paths are judged against it, and a relative one matches no rule's
		if abs, err := filepath.Abs(f.cwd); err == nil {
			return abs
		}
		return f.cwd
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}

// load reads every layer and compiles the policy. project is the
// workspace searched for a project policy ("" = --cwd or the current dir).
func (f *policyFlags) load(project string) (*policy.Policy, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	projectDir := ""
	if !f.noProject {
		projectDir = firstNonEmpty(project, f.workdir())
	}
	return f.compile(projectDir)
}

// compile reads every layer and compiles the policy, with the project
// policy searched in projectDir ("" for none).
func (f *policyFlags) compile(projectDir string) (*policy.Policy, error) {
	opts := policy.LoadOptions{ConfigFile: f.config, Environ: os.Environ(), Flags: f.apply}
	switch {
	case f.noUser:
	case f.config != "": // it may name the user file: load both as before
		opts.UserFile = policy.UserFile()
	default: // with none of the user files there is nothing to read
		opts.UserFile = policy.ExistingUserFile()
	}
	opts.ProjectDir = projectDir
	loaded, err := policy.Load(opts)
	if err != nil {
		return nil, err
	}
	f.ignored, f.files = loaded.Ignored, loaded.Files
	protected := append(append([]string{}, loaded.Files...), hook.ProtectedPaths()...)
	protected = append(protected, ownDirs()...)
	p, err := policy.Compile(loaded.Config, policy.Options{Protected: protected, Denied: secretFiles(loaded.Config.State),
		ApprovalPorts: runningServePorts(), GuardArgs: f.ownArgs(), Programs: ownPrograms(), Path: filepath.SplitList(os.Getenv("PATH"))})
	if err != nil {
		return nil, err
	}
	return f.pick(p)
}

// warnIgnored prints what the last load dropped from a project policy.
func (f *policyFlags) warnIgnored(w io.Writer) {
	for _, err := range f.ignored {
		fmt.Fprintf(w, "toolguard: warning: %v\n", err)
	}
}

func (f *policyFlags) pick(p *policy.Policy) (*policy.Policy, error) {
	if f.profile == "" {
		return p, nil
	}
	sub := p.Profile(f.profile)
	if sub == nil {
		return nil, fmt.Errorf("--profile: unknown profile %q (valid: %s)", f.profile, strings.Join(p.ProfileNames(), ", "))
	}
	return sub, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// ownDirs are toolguard's configuration and state directories wherever
// XDG variables put them: agents must not write there (grants, budgets,
// the audit log, the user policy and its backup and lock files).
// ownPrograms are the paths of this program: as it was started (a link
// keeps its name) and the executable the link leads to.
func ownPrograms() []string {
	var out []string
	if p := startedAs(); p != "" {
		out = append(out, p)
	}
	if p, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func ownDirs() []string {
	var out []string
	if dir, err := state.Dir(); err == nil {
		out = append(out, dir+"/**")
	}
	// Every candidate is in one directory: no need to stat them (UserFile).
	return append(out, filepath.Dir(policy.UserFileCandidates()[0])+"/**")
}

// secretFiles are toolguard's own secrets: an agent that reads the serve
// token, the page key (in serve-PORT.url when serve runs as a service) or
// the fleet key could approve its own calls.
func secretFiles(s policy.State) []string {
	dir, err := state.Dir()
	if err != nil {
		return nil
	}
	// serve.token, serve-page.token and any later token; the page
	// addresses; the fleet key, wherever [state] key_file puts it.
	return []string{dir + "/*.token", dir + "/serve-*.url", guard.FleetKeyFile(s, dir)}
}
