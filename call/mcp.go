package call

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Family names a group of MCP servers whose tool names and argument keys
// toolguard knows, so that their paths, URLs, SQL and commands are judged
// without configuration, whether the call reaches toolguard through an
// agent's hook (mcp__NAME__TOOL) or through `toolguard mcp`. The zero
// value is FamilyAuto.
type Family string

// The families.
const (
	// FamilyAuto picks the family from the server's command line with
	// DetectFamily, or from the server's name and the tool's with
	// MCPMapping.
	FamilyAuto Family = ""
	// FamilyFilesystem is @modelcontextprotocol/server-filesystem.
	FamilyFilesystem Family = "filesystem"
	// FamilyFetch is mcp-server-fetch.
	FamilyFetch Family = "fetch"
	// FamilyGit is mcp-server-git.
	FamilyGit Family = "git"
	// FamilyGitHub is github-mcp-server (and the older
	// @modelcontextprotocol/server-github).
	FamilyGitHub Family = "github"
	// FamilyMemory is @modelcontextprotocol/server-memory.
	FamilyMemory Family = "memory"
	// FamilyTime is mcp-server-time.
	FamilyTime Family = "time"
	// FamilySQL is the SQLite and PostgreSQL reference servers and their
	// like: a query argument holds SQL.
	FamilySQL Family = "sql"
	// FamilyBrowser is @playwright/mcp and the Puppeteer server.
	FamilyBrowser Family = "browser"
	// FamilyDesktopCommander is @wonderwhy-er/desktop-commander.
	FamilyDesktopCommander Family = "desktop-commander"
	// FamilyJetBrains is the MCP server built into JetBrains IDEs
	// (IntelliJ IDEA, PyCharm, GoLand, RubyMine, …, since 2025.2).
	FamilyJetBrains Family = "jetbrains"
	// FamilyKubernetes is mcp-server-kubernetes (Flux159), whose tools run
	// kubectl: each call is judged as the kubectl command it runs.
	FamilyKubernetes Family = "kubernetes"
	// FamilySentry is Sentry's MCP server (@sentry/mcp-server,
	// mcp.sentry.dev): its finds, gets and searches read a project's errors
	// and traces; its updates and creations change the organization.
	FamilySentry Family = "sentry"
	// FamilyGeneric knows only the shell-like tools (run_command,
	// execute_command, shell, …) and fetch, which every family includes.
	FamilyGeneric Family = "generic"
	// FamilyNone knows no tool: every tool's arguments are sniffed and it is
	// judged at the execute tier.
	FamilyNone Family = "none"
)

// Families lists the valid family names (FamilyAuto as "auto").
func Families() []string {
	return []string{"auto", string(FamilyFilesystem), string(FamilyFetch), string(FamilyGit), string(FamilyGitHub),
		string(FamilyMemory), string(FamilyTime), string(FamilySQL), string(FamilyBrowser),
		string(FamilyDesktopCommander), string(FamilyJetBrains), string(FamilyKubernetes), string(FamilySentry), string(FamilyGeneric),
		string(FamilyNone)}
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

// familyNames are words in a server's package, program or configured name
// that say its family, most specific first.
var familyNames = []struct {
	word string
	f    Family
}{
	{"desktop-commander", FamilyDesktopCommander}, {"desktopcommander", FamilyDesktopCommander},
	{"filesystem", FamilyFilesystem}, {"github", FamilyGitHub}, {"playwright", FamilyBrowser},
	{"puppeteer", FamilyBrowser}, {"sqlite", FamilySQL}, {"postgres", FamilySQL}, {"mysql", FamilySQL},
	{"memory", FamilyMemory}, {"fetch", FamilyFetch}, {"git", FamilyGit}, {"time", FamilyTime},
	{"jetbrains", FamilyJetBrains}, {"intellij", FamilyJetBrains}, {"idea", FamilyJetBrains},
	{"pycharm", FamilyJetBrains}, {"webstorm", FamilyJetBrains}, {"goland", FamilyJetBrains},
	{"rubymine", FamilyJetBrains}, {"phpstorm", FamilyJetBrains}, {"rider", FamilyJetBrains},
	{"clion", FamilyJetBrains}, {"rustrover", FamilyJetBrains}, {"datagrip", FamilyJetBrains},
	{"kubernetes", FamilyKubernetes}, {"k8s", FamilyKubernetes}, {"sentry", FamilySentry},
}

// DetectFamily picks the family of a server command line: the first
// argument whose base name, without an npm scope or a version, names one
// of the known servers (server-filesystem, mcp-server-git,
// @playwright/mcp, a path such as …/server-filesystem/dist/index.js);
// FamilyGeneric when none does.
func DetectFamily(argv []string) Family {
	for _, arg := range argv {
		if f := familyOf(stripVersion(arg)); f != FamilyGeneric {
			return f
		}
	}
	return FamilyGeneric
}

// familyOf names the family a package, path or server name belongs to: a
// word of it (split at "/", "-", "_", ".", "@") is a family's word
// ("server-filesystem", "github-mcp-server", "@playwright/mcp",
// "mcp_server_git"), or it contains a multi-word family name
// ("desktop-commander").
func familyOf(name string) Family {
	low := strings.ToLower(filepath.ToSlash(name))
	words := strings.FieldsFunc(low, func(r rune) bool { return strings.ContainsRune("/-_.@ ", r) })
	for _, fn := range familyNames {
		if strings.ContainsAny(fn.word, "-") && strings.Contains(low, fn.word) || slices.Contains(words, fn.word) {
			return fn.f
		}
	}
	return FamilyGeneric
}

// stripVersion drops an npm-style "@version" suffix ("pkg@1.2.3",
// "@scope/pkg@latest") and a PyPI "==version" suffix.
func stripVersion(arg string) string {
	if i := strings.Index(arg, "=="); i > 0 {
		arg = arg[:i]
	}
	if i := strings.LastIndexByte(arg, '@'); i > 0 && i > strings.LastIndexAny(arg, `/\`) {
		arg = arg[:i] // only the last path element carries a version: .../node_modules/@scope/pkg/index.js has none
	}
	return arg
}

// Mappings returns the family's tool mappings, keyed by the server's own
// tool name. FamilyAuto has none (resolve it with DetectFamily first).
func (f Family) Mappings() map[string]Mapping {
	out := map[string]Mapping{}
	if f == FamilyNone || f == FamilyAuto {
		return out
	}
	for k, v := range genericMCPTools() {
		out[k] = v
	}
	for k, v := range familyTools(f) {
		out[k] = v
	}
	return out
}

// MCPMapping finds the mapping of an MCP tool by the server's configured
// name and the tool's name, for agents' direct mcp__SERVER__TOOL calls:
// the family the server's name says, else the mapping of the families
// whose tools include this one when they all map it alike (read_text_file,
// git_status; write_file of the filesystem and desktop-commander servers,
// so that a filesystem server named "fs" is judged as under its own name),
// else the generic shell-like tools.
func MCPMapping(server, tool string) (Mapping, bool) {
	if f := familyOf(server); f != FamilyGeneric {
		if m, ok := familyTools(f)[tool]; ok {
			return m, true
		}
	}
	var found *Mapping
	agree := true
	for _, f := range Families()[1:] {
		m, ok := familyTools(Family(f))[tool]
		switch {
		case !ok:
		case found == nil:
			found = &m
		case !reflect.DeepEqual(*found, m):
			agree = false
		}
	}
	if found != nil && agree {
		return *found, true
	}
	m, ok := genericMCPTools()[tool]
	return m, ok
}

func familyTools(f Family) map[string]Mapping {
	switch f {
	case FamilyFilesystem:
		return filesystemTools()
	case FamilyGit:
		return gitTools()
	case FamilyGitHub:
		return githubTools()
	case FamilyMemory:
		return memoryTools()
	case FamilyTime:
		return map[string]Mapping{"get_current_time": harmless(), "convert_time": harmless()}
	case FamilySQL:
		return sqlTools()
	case FamilyBrowser:
		return browserTools()
	case FamilyDesktopCommander:
		return desktopCommanderTools()
	case FamilyJetBrains:
		return jetbrainsTools()
	case FamilyKubernetes:
		return kubernetesTools()
	case FamilySentry:
		return sentryTools()
	case FamilyFetch:
		return map[string]Mapping{"fetch": {Kind: Fetch, URLArgs: []string{"url"}}}
	}
	return nil
}

var (
	mcpPath   = []string{"path"}
	shellCwds = []string{"cwd", "workdir", "working_directory", "directory", "dir"}
	repoPath  = []string{"repo_path"}
)

func mcpMapping(k Kind, paths ...string) Mapping { return Mapping{Kind: k, PathArgs: paths} }

func mcpShell(args ...string) Mapping {
	if len(args) == 0 {
		args = []string{"command", "cmd", "script"}
	}
	return Mapping{Kind: Shell, CommandArgs: args, CwdArgs: shellCwds, Code: true}
}

// remoteRead is a tool that reads a remote service (an issue, a file of a
// repository) and changes nothing.
func remoteRead() Mapping { return Mapping{Kind: Other, Tier: risk.Read, TierSet: true} }

// remoteWrite is a tool that changes a remote service.
func remoteWrite() Mapping { return Mapping{Kind: Other, Tier: risk.Write, TierSet: true} }

// genericMCPTools are shell-like tools and fetch, known in every family.
func genericMCPTools() map[string]Mapping {
	return map[string]Mapping{
		"run_command":       mcpShell(),
		"execute_command":   mcpShell(),
		"run_shell_command": mcpShell(),
		"shell":             mcpShell(),
		"bash":              mcpShell(),
		"exec":              mcpShell(),
		"fetch":             {Kind: Fetch, URLArgs: []string{"url"}},
		// Context7's documentation look-ups: a library's name or ID and a
		// topic go to its service, and documentation comes back; the ID
		// (/vercel/next.js) names no file here.
		"resolve-library-id": docsLookup(),
		"get-library-docs":   docsLookup(),
		"query-docs":         docsLookup(),
	}
}

// docsLookup is a tool that asks a documentation service about a library:
// it reads remote text and sends its arguments, which must hold no secret.
func docsLookup() Mapping {
	return Mapping{Kind: Other, Tier: risk.Read, TierSet: true, Sends: true}
}

// filesystemTools are the tools of @modelcontextprotocol/server-filesystem
// (checked against version 2026.8.31).
func filesystemTools() map[string]Mapping {
	return map[string]Mapping{
		"read_file":                 mcpMapping(Read, mcpPath...),
		"read_text_file":            mcpMapping(Read, mcpPath...),
		"read_media_file":           mcpMapping(Read, mcpPath...),
		"read_multiple_files":       mcpMapping(Read, "paths"),
		"list_directory":            {Kind: Read, StatArgs: mcpPath},
		"list_directory_with_sizes": {Kind: Read, StatArgs: mcpPath},
		"directory_tree":            {Kind: Read, StatArgs: mcpPath},
		"search_files":              {Kind: Search, StatArgs: mcpPath},
		"get_file_info":             {Kind: Read, StatArgs: mcpPath},
		"list_allowed_directories":  mcpMapping(Read),
		"write_file":                mcpMapping(Write, mcpPath...),
		"edit_file":                 {Kind: Write, PathArgs: mcpPath, DryRunArgs: []string{"dryRun", "dry_run"}},
		"create_directory":          mcpMapping(Write, mcpPath...),
		"move_file":                 mcpMapping(Write, "source", "destination"),
	}
}

// gitTools are the tools of mcp-server-git: every tool names the
// repository in repo_path; the ones that change it are writes. Files named
// by git_add resolve against the repository.
func gitTools() map[string]Mapping {
	read := Mapping{Kind: Read, StatArgs: repoPath}
	write := Mapping{Kind: Write, PathArgs: repoPath}
	return map[string]Mapping{
		"git_status": read, "git_diff_unstaged": read, "git_diff_staged": read, "git_diff": read,
		"git_log": read, "git_show": read, "git_branch": read,
		// the reference server's git_reset only unstages; other git servers
		// take a mode, and hard, merge and keep lose uncommitted work
		"git_reset":  {Kind: Write, PathArgs: repoPath, DiscardArgs: map[string][]string{"mode": {"hard", "merge", "keep"}}},
		"git_commit": write, "git_checkout": write, "git_create_branch": write, "git_init": write,
		"git_add": {Kind: Write, PathArgs: []string{"repo_path", "files"}, CwdArgs: repoPath},
	}
}

// githubTools are the tools of github-mcp-server (and the older reference
// server): reads of issues, pull requests, code and repositories, and the
// tools that change them.
func githubTools() map[string]Mapping {
	out := map[string]Mapping{}
	for _, t := range []string{"get_me", "get_file_contents", "get_issue", "get_issue_comments", "get_pull_request",
		"get_pull_request_files", "get_pull_request_status", "get_pull_request_comments", "get_pull_request_reviews",
		"get_pull_request_diff", "get_commit", "get_tag", "get_release_by_tag", "get_latest_release", "get_label",
		"get_code_scanning_alert", "get_secret_scanning_alert", "get_dependabot_alert", "get_notification_details",
		"get_workflow_run", "get_job_logs", "get_team_members", "get_teams", "list_issues", "list_pull_requests",
		"list_commits", "list_branches", "list_tags", "list_releases", "list_notifications", "list_workflows",
		"list_workflow_runs", "list_workflow_jobs", "list_code_scanning_alerts", "list_secret_scanning_alerts",
		"list_dependabot_alerts", "list_discussions", "list_gists", "list_issue_types", "list_sub_issues",
		"list_starred_repositories", "search_code", "search_issues", "search_pull_requests", "search_repositories",
		"search_users", "search_orgs", "issue_read", "pull_request_read", "get_discussion", "get_discussion_comments"} {
		out[t] = remoteRead()
	}
	for _, t := range []string{"create_issue", "update_issue", "add_issue_comment", "create_pull_request",
		"update_pull_request", "merge_pull_request", "push_files", "create_or_update_file", "delete_file",
		"create_branch", "create_repository", "fork_repository", "create_pull_request_review",
		"submit_pending_pull_request_review", "add_comment_to_pending_review", "request_copilot_review",
		"update_pull_request_branch", "assign_copilot_to_issue", "add_sub_issue", "remove_sub_issue",
		"reprioritize_sub_issue", "dismiss_notification", "mark_all_notifications_read", "manage_notification_subscription",
		"manage_repository_notification_subscription", "run_workflow", "rerun_workflow_run", "rerun_failed_jobs",
		"cancel_workflow_run", "delete_workflow_run_logs", "create_gist", "update_gist", "issue_write",
		"pull_request_review_write", "star_repository", "unstar_repository"} {
		out[t] = remoteWrite()
	}
	for _, t := range []string{"create_or_update_file", "push_files"} { // the files pushed are code a CI service or a clone may run
		m := remoteWrite()
		m.RemoteFiles = true
		out[t] = m
	}
	return out
}

// sentryTools are the tools of Sentry's MCP server: the finds, gets and
// searches read issues, events, traces, releases and Sentry's own docs;
// the rest change the organization (update_issue, create_project,
// create_dsn, …) or start Seer's analysis, which writes to the issue.
func sentryTools() map[string]Mapping {
	out := map[string]Mapping{}
	for _, t := range []string{"whoami", "find_organizations", "find_teams", "find_projects", "find_releases",
		"find_dsns", "find_tags", "get_issue_details", "get_trace_details", "get_event_attachment",
		"get_issue_tag_values", "search_events", "search_issues", "search_issue_events", "search_docs", "get_doc"} {
		out[t] = remoteRead()
	}
	for _, t := range []string{"update_issue", "update_project", "create_team", "create_project", "create_dsn",
		"analyze_issue_with_seer"} {
		out[t] = remoteWrite()
	}
	return out
}

// memoryTools are the tools of the knowledge-graph memory server.
func memoryTools() map[string]Mapping {
	return map[string]Mapping{
		"read_graph": harmless(), "search_nodes": harmless(), "open_nodes": harmless(),
		"create_entities": remoteWrite(), "create_relations": remoteWrite(), "add_observations": remoteWrite(),
		"delete_entities": remoteWrite(), "delete_observations": remoteWrite(), "delete_relations": remoteWrite(),
	}
}

// sqlTools are the query tools of database servers: the SQL they are given
// decides the tier (SQLArgs).
func sqlTools() map[string]Mapping {
	sql := func() Mapping { return Mapping{Kind: Other, SQLArgs: []string{"query", "sql", "statement"}} }
	return map[string]Mapping{
		"read_query": sql(), "write_query": sql(), "query": sql(), "execute_query": sql(), "run_query": sql(),
		"execute_sql": sql(), "create_table": sql(),
		"list_tables": harmless(), "describe_table": harmless(), "list_schemas": harmless(), "list_databases": harmless(),
		"append_insight": remoteWrite(),
	}
}

// browserTools are the tools of @playwright/mcp and the Puppeteer server:
// looking at the page is a read, navigating is a fetch of the URL (a
// file:// URL is a read of the file), uploading sends files, running
// JavaScript and acting on the page are executions.
func browserTools() map[string]Mapping {
	out := map[string]Mapping{
		// the browser runs on this machine: navigating is the GET curl
		// makes from here, judged as curl's (the project's dev server on
		// localhost is read as curl localhost is; metadata addresses stay
		// denied; a file:// URL is a read of the file)
		"browser_navigate":        navigateLine(),
		"puppeteer_navigate":      navigateLine(),
		"browser_file_upload":     {Kind: Other, Tier: risk.Execute, TierSet: true, PathArgs: []string{"paths"}},
		"browser_evaluate":        {Kind: Other},
		"puppeteer_evaluate":      {Kind: Other},
		"browser_run_code":        {Kind: Other},
		"browser_pdf_save":        {Kind: Write, PathArgs: []string{"filename"}},
		"browser_install":         {Kind: Other},
		"browser_take_screenshot": {Kind: Other, Tier: risk.Read, TierSet: true},
	}
	for _, t := range []string{"browser_snapshot", "browser_console_messages", "browser_network_requests",
		"browser_tab_list", "browser_tabs", "browser_wait_for", "puppeteer_screenshot"} {
		out[t] = harmless()
	}
	for _, t := range []string{"browser_click", "browser_type", "browser_press_key", "browser_select_option",
		"browser_hover", "browser_drag", "browser_fill_form", "browser_handle_dialog", "browser_navigate_back",
		"browser_navigate_forward", "browser_resize", "browser_close", "browser_tab_new", "browser_tab_select",
		"browser_tab_close", "puppeteer_click", "puppeteer_fill", "puppeteer_select", "puppeteer_hover"} {
		out[t] = Mapping{Kind: Other, Tier: risk.Execute, TierSet: true}
	}
	return out
}

// navigateLine judges a browser's navigation as curl -s URL.
func navigateLine() Mapping {
	return Mapping{Kind: Shell, Program: &ProgramLine{Argv: []string{"curl", "-s"}, Args: []ProgramArg{{Key: "url"}}}}
}

// jetbrainsTools are the tools of the MCP server built into JetBrains IDEs
// (checked against the IntelliJ IDEA 2025.3 documentation): paths are
// relative to projectPath, the project's root. Tools not listed here
// (execute_action_by_id, run configurations, the debugger) stay unknown
// and are judged so.
func jetbrainsTools() map[string]Mapping {
	project := []string{"projectPath"}
	read := func(keys ...string) Mapping { return Mapping{Kind: Read, PathArgs: keys, CwdArgs: project} }
	stat := func(keys ...string) Mapping { return Mapping{Kind: Read, StatArgs: keys, CwdArgs: project} }
	write := func(keys ...string) Mapping { return Mapping{Kind: Write, PathArgs: keys, CwdArgs: project} }
	return map[string]Mapping{
		"get_file_text_by_path":      read("pathInProject"),
		"get_file_problems":          read("filePath"),
		"get_symbol_info":            read("filePath"),
		"open_file_in_editor":        read("filePath"),
		"list_directory_tree":        stat("directoryPath"),
		"find_files_by_name_keyword": stat(),
		"find_files_by_glob":         stat("subDirectoryRelativePath"),
		"search_in_files_by_text":    {Kind: Search, PathArgs: []string{"directoryToSearch"}, CwdArgs: project},
		"search_in_files_by_regex":   {Kind: Search, PathArgs: []string{"directoryToSearch"}, CwdArgs: project},
		"get_all_open_file_paths":    stat(),
		"get_project_modules":        stat(),
		"get_project_dependencies":   stat(),
		"get_repositories":           stat(),
		"get_run_configurations":     stat(),
		"create_new_file":            write("pathInProject"),
		"replace_text_in_file":       write("pathInProject"),
		"reformat_file":              write("path"),
		"rename_refactoring":         write("pathInProject"),
		"execute_terminal_command":   {Kind: Shell, CommandArgs: []string{"command"}, CwdArgs: project, Code: true},
	}
}

// kubernetesTools are the tools of mcp-server-kubernetes (Flux159), which
// run kubectl with the arguments as separate words: a call is the kubectl
// command it runs, judged by kubectl's effects (kubectl get pods reads;
// kubectl get secrets in the server's default JSON prints their data;
// delete and scale change the cluster). Tools not listed here (apply,
// create, patch, exec_in_pod, helm, port_forward, kubectl_generic, …) and
// arguments a line does not list stay unknown and are judged so.
func kubernetesTools() map[string]Mapping {
	global := []ProgramArg{{Key: "namespace", Option: "--namespace"}, {Key: "context", Option: "--context"}}
	line := func(argv []string, args ...ProgramArg) Mapping {
		return Mapping{Kind: Shell, Program: &ProgramLine{Argv: argv, Args: append(args, global...)}}
	}
	typed := []ProgramArg{{Key: "resourceType"}, {Key: "name"}}
	return map[string]Mapping{
		"kubectl_get": line([]string{"kubectl", "get"}, append(typed,
			ProgramArg{Key: "output", Option: "--output", Default: "json"},
			ProgramArg{Key: "allNamespaces", Option: "--all-namespaces", Bool: true},
			ProgramArg{Key: "labelSelector", Option: "--selector"},
			ProgramArg{Key: "fieldSelector", Option: "--field-selector"},
			ProgramArg{Key: "sortBy", Option: "--sort-by"})...),
		"kubectl_describe": line([]string{"kubectl", "describe"}, append(typed,
			ProgramArg{Key: "allNamespaces", Option: "--all-namespaces", Bool: true})...),
		"kubectl_delete": line([]string{"kubectl", "delete"}, append(typed,
			ProgramArg{Key: "labelSelector", Option: "--selector"},
			ProgramArg{Key: "allNamespaces", Option: "--all-namespaces", Bool: true},
			ProgramArg{Key: "force", Option: "--force", Bool: true},
			ProgramArg{Key: "gracePeriodSeconds", Option: "--grace-period"})...),
		"kubectl_scale": line([]string{"kubectl", "scale"}, ProgramArg{Key: "resourceType", Default: "deployment"},
			ProgramArg{Key: "name"}, ProgramArg{Key: "replicas", Option: "--replicas"}),
		"list_api_resources": line([]string{"kubectl", "api-resources"}, ProgramArg{Key: "apiGroup", Option: "--api-group"},
			ProgramArg{Key: "namespaced", Option: "--namespaced", Bool: true}, ProgramArg{Key: "verbs", Option: "--verbs"},
			ProgramArg{Key: "output", Option: "--output"}),
		"explain_resource": line([]string{"kubectl", "explain"}, ProgramArg{Key: "resource"},
			ProgramArg{Key: "apiVersion", Option: "--api-version"},
			ProgramArg{Key: "recursive", Option: "--recursive", Bool: true}),
	}
}

// desktopCommanderTools are the tools of Desktop Commander.
func desktopCommanderTools() map[string]Mapping {
	return map[string]Mapping{
		"execute_command":       mcpShell(),
		"start_process":         mcpShell(),
		"interact_with_process": {Kind: Other},
		"read_file":             mcpMapping(Read, mcpPath...),
		"read_multiple_files":   mcpMapping(Read, "paths"),
		"write_file":            mcpMapping(Write, mcpPath...),
		"edit_block":            mcpMapping(Write, "file_path"),
		"create_directory":      mcpMapping(Write, mcpPath...),
		"move_file":             mcpMapping(Write, "source", "destination"),
		"list_directory":        {Kind: Read, StatArgs: mcpPath},
		"get_file_info":         {Kind: Read, StatArgs: mcpPath},
		"search_files":          {Kind: Search, StatArgs: mcpPath},
		"search_code":           {Kind: Search, PathArgs: mcpPath},
		"start_search":          {Kind: Search, PathArgs: mcpPath},
		"list_processes":        harmless(),
		"list_sessions":         harmless(),
		"read_process_output":   harmless(),
		"get_config":            harmless(),
		"kill_process":          {Kind: Other},
		"force_terminate":       {Kind: Other},
		"set_config_value":      {Kind: Other},
	}
}
