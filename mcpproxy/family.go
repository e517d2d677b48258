package mcpproxy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/call"
)

// Family names a group of MCP servers whose tool names and argument keys
// the proxy knows, so their paths, URLs and commands are checked without
// configuration. The zero value is FamilyAuto.
type Family string

// The families.
const (
	// FamilyAuto picks the family from the server's command line with
	// DetectFamily.
	FamilyAuto Family = ""
	// FamilyFilesystem is @modelcontextprotocol/server-filesystem.
	FamilyFilesystem Family = "filesystem"
	// FamilyFetch is mcp-server-fetch.
	FamilyFetch Family = "fetch"
	// FamilyGit is mcp-server-git.
	FamilyGit Family = "git"
	// FamilyGeneric knows only the shell-like tools (run_command,
	// execute_command, shell, …) and fetch, which every family includes.
	FamilyGeneric Family = "generic"
	// FamilyNone knows no tool: every tool's arguments are sniffed for the
	// usual path, URL and command keys and it is judged at the execute tier.
	FamilyNone Family = "none"
)

// Families lists the valid family names (FamilyAuto as "auto").
func Families() []string {
	return []string{"auto", string(FamilyFilesystem), string(FamilyFetch), string(FamilyGit), string(FamilyGeneric), string(FamilyNone)}
}

// ParseFamily parses a family name; "auto" and "" mean FamilyAuto.
func ParseFamily(s string) (Family, error) {
	if s == "" || s == "auto" {
		return FamilyAuto, nil
	}
	for _, f := range Families() {
		if f == s {
			return Family(s), nil
		}
	}
	return "", fmt.Errorf("unknown server family %q (valid: %s)", s, strings.Join(Families(), ", "))
}

// familyCommands are the program and package names of the reference
// servers.
var familyCommands = map[string]Family{
	"server-filesystem": FamilyFilesystem, "mcp-server-filesystem": FamilyFilesystem,
	"server-fetch": FamilyFetch, "mcp-server-fetch": FamilyFetch,
	"server-git": FamilyGit, "mcp-server-git": FamilyGit,
	"mcp_server_fetch": FamilyFetch, "mcp_server_git": FamilyGit, // python -m …
}

// DetectFamily picks the family of a server command line (FamilyAuto): the
// first argument whose base name, without an npm scope or version, is one
// of the reference servers' names (server-filesystem, mcp-server-fetch,
// mcp-server-git, …); FamilyGeneric when none is.
func DetectFamily(argv []string) Family {
	for _, arg := range argv {
		base := strings.ToLower(filepath.Base(stripVersion(arg)))
		if f, ok := familyCommands[strings.TrimSuffix(base, ".js")]; ok {
			return f
		}
	}
	return FamilyGeneric
}

// Mappings returns the family's tool mappings, keyed by the server's own
// tool name. FamilyAuto has none (resolve it with DetectFamily first).
func (f Family) Mappings() map[string]call.Mapping {
	out := map[string]call.Mapping{}
	if f == FamilyNone || f == FamilyAuto {
		return out
	}
	add(out, genericTools)
	switch f {
	case FamilyFilesystem:
		add(out, filesystemTools)
	case FamilyGit:
		add(out, gitTools)
	}
	return out
}

func add(dst, src map[string]call.Mapping) {
	for k, v := range src {
		dst[k] = v
	}
}

var (
	pathArg   = []string{"path"}
	shellCwds = []string{"cwd", "workdir", "working_directory", "directory", "dir"}
	repoPath  = []string{"repo_path"}
)

func mapping(k call.Kind, paths ...string) call.Mapping {
	return call.Mapping{Kind: k, PathArgs: paths}
}

func shellTool() call.Mapping {
	return call.Mapping{Kind: call.Shell, CommandArgs: []string{"command", "cmd", "script"}, CwdArgs: shellCwds}
}

// genericTools are shell-like tools and fetch, known in every family.
var genericTools = map[string]call.Mapping{
	"run_command":       shellTool(),
	"execute_command":   shellTool(),
	"run_shell_command": shellTool(),
	"shell":             shellTool(),
	"bash":              shellTool(),
	"exec":              shellTool(),
	"fetch":             {Kind: call.Fetch, URLArgs: []string{"url"}},
}

// filesystemTools are the tools of @modelcontextprotocol/server-filesystem
// (checked against version 2026.8.31).
var filesystemTools = map[string]call.Mapping{
	"read_file":                 mapping(call.Read, pathArg...),
	"read_text_file":            mapping(call.Read, pathArg...),
	"read_media_file":           mapping(call.Read, pathArg...),
	"read_multiple_files":       mapping(call.Read, "paths"),
	"list_directory":            mapping(call.Read, pathArg...),
	"list_directory_with_sizes": mapping(call.Read, pathArg...),
	"directory_tree":            mapping(call.Read, pathArg...),
	"search_files":              mapping(call.Search, pathArg...),
	"get_file_info":             mapping(call.Read, pathArg...),
	"list_allowed_directories":  mapping(call.Read),
	"write_file":                mapping(call.Write, pathArg...),
	"edit_file":                 mapping(call.Write, pathArg...),
	"create_directory":          mapping(call.Write, pathArg...),
	"move_file":                 mapping(call.Write, "source", "destination"),
}

// gitTools are the tools of mcp-server-git: every tool names the
// repository in repo_path; the ones that change it are writes. Files named
// by git_add resolve against the repository.
var gitTools = map[string]call.Mapping{
	"git_status":        gitRead(),
	"git_diff_unstaged": gitRead(),
	"git_diff_staged":   gitRead(),
	"git_diff":          gitRead(),
	"git_log":           gitRead(),
	"git_show":          gitRead(),
	"git_branch":        gitRead(),
	"git_commit":        gitWrite(),
	"git_add":           {Kind: call.Write, PathArgs: []string{"repo_path", "files"}, CwdArgs: repoPath},
	"git_reset":         gitWrite(),
	"git_checkout":      gitWrite(),
	"git_create_branch": gitWrite(),
	"git_init":          gitWrite(),
}

func gitRead() call.Mapping { return call.Mapping{Kind: call.Read, PathArgs: repoPath} }

func gitWrite() call.Mapping { return call.Mapping{Kind: call.Write, PathArgs: repoPath} }

// stripVersion drops an npm-style "@version" suffix ("pkg@1.2.3",
// "@scope/pkg@latest") and a PyPI "==version" suffix.
func stripVersion(arg string) string {
	if i := strings.Index(arg, "=="); i > 0 {
		arg = arg[:i]
	}
	if i := strings.LastIndexByte(arg, '@'); i > 0 {
		arg = arg[:i]
	}
	return arg
}
