package call

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Mapping says how to read one tool's arguments.
type Mapping struct {
	// Kind is the tool's kind. Empty means Other.
	Kind Kind `json:"kind"`
	// Tier, when TierSet, overrides the kind's default tier.
	Tier    risk.Tier `json:"tier"`
	TierSet bool      `json:"-"`
	// CommandArgs are the argument keys that may hold a shell command; the
	// first present one is used. Nil means none.
	CommandArgs []string `json:"command_args,omitempty"`
	// PathArgs are argument keys holding a path or a list of paths. Every
	// present one is used. Nil means none.
	PathArgs []string `json:"path_args,omitempty"`
	// StatArgs are argument keys holding paths whose names and metadata
	// only are read (a directory listing, file information). Nil means
	// none.
	StatArgs []string `json:"stat_args,omitempty"`
	// SQLArgs are argument keys holding SQL the tool runs; the statements
	// decide the tier. Nil means none.
	SQLArgs []string `json:"sql_args,omitempty"`
	// Sniff makes every string argument count: URLs anywhere in the text,
	// and values that are absolute or home paths. Set for tools the table
	// does not know.
	Sniff bool `json:"sniff,omitempty"`
	// Code makes code anywhere in the arguments the call's command (code.go):
	// code keys at any depth (script, code, cmd, exec, …), argv arrays, a
	// program with its args or stdin beside it, code in a named language and
	// base64 or hex literals. Set for tools the table does not know and for
	// the MCP servers' shell tools; false means only CommandArgs.
	Code bool `json:"code,omitempty"`
	// URLArgs are argument keys holding a URL or a list of URLs. Nil means
	// none.
	URLArgs []string `json:"url_args,omitempty"`
	// CwdArgs are argument keys holding the working directory of the call.
	CwdArgs []string `json:"cwd_args,omitempty"`
	// EnvArgs are argument keys holding an object of environment variables
	// the command runs with (opencode-pty's pty_spawn env): each is
	// exported before the command, so that what it changes (LD_PRELOAD,
	// NODE_OPTIONS, PATH) is judged as in a command line that sets it.
	// Nil means none.
	EnvArgs []string `json:"env_args,omitempty"`
	// PatchArgs are argument keys holding an apply_patch style patch whose
	// "*** Add/Update/Delete File:" lines name the paths written.
	PatchArgs []string `json:"patch_args,omitempty"`
	// URLsInText are argument keys holding free text whose http(s) URLs are
	// fetched (Gemini's web_fetch prompt).
	URLsInText []string `json:"urls_in_text,omitempty"`
	// DryRunArgs are boolean argument keys that, when true, make the tool
	// only preview what it would change (the filesystem server's edit_file
	// dryRun): the call is then a read of its paths. Nil means none.
	DryRunArgs []string `json:"dry_run_args,omitempty"`
	// DiscardArgs are argument values that make the tool destroy work
	// (git_reset's mode "hard"): key → values, compared without case; a
	// match sets the call's Discards. Nil means none.
	DiscardArgs map[string][]string `json:"discard_args,omitempty"`
	// Sends marks a tool that sends its arguments off this machine as
	// they are (a web search's query goes to a search engine): a secret
	// in them is on its way out. False: the arguments stay here, or are
	// judged by their URLs.
	Sends bool `json:"sends,omitempty"`
	// RemoteFiles marks a tool that writes files into a remote repository
	// (a forge's create_or_update_file, push_files): each path with its
	// content — path or file_path beside content at the top level, and
	// each such object of a files list — becomes one of the call's
	// Remote files, in the repository owner/repo or project_id names.
	// False: the tool writes no file it gives the content of.
	RemoteFiles bool `json:"remote_files,omitempty"`
	// Program, when set, says the tool runs a program with a command line
	// built from its arguments (the Kubernetes server's kubectl_get is
	// kubectl get TYPE NAME --namespace=NS): the call is judged as that
	// shell command, by what the program does. Arguments it does not
	// list leave the command unknown: the call is then judged as a tool
	// toolguard does not know. Nil means none.
	Program *ProgramLine `json:"program,omitempty"`
}

// ProgramLine builds the command line of a tool that runs a program.
type ProgramLine struct {
	// Argv are the first words (the program and its sub-command).
	Argv []string `json:"argv"`
	// Args are the tool's arguments in the order their words follow.
	Args []ProgramArg `json:"args"`
}

// ProgramArg is one argument of a [ProgramLine].
type ProgramArg struct {
	// Key is the argument's key.
	Key string `json:"key"`
	// Option is the option the value is given to (--namespace, written
	// --namespace=VALUE); empty for an operand.
	Option string `json:"option,omitempty"`
	// Bool makes the argument a boolean: Option is given when it is true.
	Bool bool `json:"bool,omitempty"`
	// Default is the value the tool uses when the argument is absent
	// ("" for none): the server's own default is part of what it runs.
	Default string `json:"default,omitempty"`
}

// Table maps tool names to mappings. The zero Table knows no tools; use
// [Default] for the built-in names of every supported agent. A Table is
// immutable after construction and safe for concurrent use.
type Table struct {
	// exact maps tool names to mappings; they win over the built-in ones.
	exact map[string]Mapping
	// builtin makes the table know the built-in tool names (builtinTool)
	// after exact ones and before globs: Default sets it.
	builtin bool
	globs   []globMapping
	// mcpFamilies makes Normalize look MCP tools the table does not name up
	// in the known server families (MCPMapping). Default sets it; a table
	// built from the zero Table (the MCP proxy's, whose family is chosen)
	// does not.
	mcpFamilies bool
	// programs says which program names toolguard knows; with it, a string
	// argument of a tool the table does not know that reads as a command of
	// such a program is judged as one (WithPrograms). Nil means none is.
	programs func(name string) bool
}

type globMapping struct {
	pattern string
	m       Mapping
}

// Default returns the built-in table: the tools of Claude Code, Codex CLI,
// Gemini CLI, Cursor, docker-agent, Aar and ai-chat, and the kind names
// themselves ("shell", "read", …) for callers that speak in kinds.
func Default() *Table { return defaultTable }

// defaultTable is the one built-in table: a Table is immutable, so every
// caller can share it, and it holds no names of its own (builtinTool), so
// it is static data.
var defaultTable = &Table{builtin: true, mcpFamilies: true}

// With returns a copy of t in which the given mappings (tool name or
// path.Match glob such as "mcp__fs__*" → mapping) take precedence. With no
// mappings it returns t itself: tables are immutable, so nothing can tell
// the difference, and every process that loads a policy without [tools]
// is spared a copy of the built-in table.
func (t *Table) With(user map[string]Mapping) (*Table, error) {
	if len(user) == 0 {
		return t, nil
	}
	n := &Table{exact: make(map[string]Mapping, len(t.exact)+len(user)), globs: append([]globMapping(nil), t.globs...),
		builtin: t.builtin, mcpFamilies: t.mcpFamilies, programs: t.programs}
	for k, v := range t.exact {
		n.exact[k] = v
	}
	names := make([]string, 0, len(user))
	for k := range user {
		names = append(names, k)
	}
	sort.Strings(names)
	var globs []globMapping
	for _, name := range names {
		m := user[name]
		if !strings.ContainsAny(name, "*?[") {
			n.exact[name] = m
			continue
		}
		if _, err := path.Match(name, ""); err != nil {
			return nil, fmt.Errorf("tool pattern %q: %w", name, err)
		}
		globs = append(globs, globMapping{name, m})
	}
	n.globs = append(globs, n.globs...)
	return n, nil
}

// WithPrograms returns a copy of t that knows which program names are
// known (known must be safe for concurrent use): every string argument of a
// tool the table does not know that parses as a command line whose program
// is known (`"note": "rm -rf ~"`) becomes part of the call's command, as
// code keys do. Nil known returns t.
func (t *Table) WithPrograms(known func(name string) bool) *Table {
	if known == nil {
		return t
	}
	n := *t
	n.programs = known
	return &n
}

// Programs returns the function that says which program names are known
// (WithPrograms); nil when none was given.
func (t *Table) Programs() func(name string) bool {
	if t == nil {
		return nil
	}
	return t.programs
}

// Lookup returns the mapping of a tool name and whether one was found.
// Exact names win over globs; later-added globs win over earlier ones.
func (t *Table) Lookup(name string) (Mapping, bool) {
	if t == nil {
		return Mapping{}, false
	}
	if m, ok := t.exact[name]; ok {
		return m, true
	}
	if t.builtin {
		if m, ok := builtinTool(name); ok {
			return m, true
		}
	}
	for _, g := range t.globs {
		if ok, _ := path.Match(g.pattern, name); ok {
			return g.m, true
		}
	}
	return Mapping{}, false
}

// Names returns every exact tool name the table knows, sorted.
func (t *Table) Names() []string {
	names := make([]string, 0, len(t.exact)+len(builtinNames))
	for k := range t.exact {
		if !t.builtin || !slices.Contains(builtinNames, k) {
			names = append(names, k)
		}
	}
	if t.builtin {
		names = append(names, builtinNames...)
	}
	sort.Strings(names)
	return names
}
