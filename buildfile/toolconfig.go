package buildfile

import (
	"path"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// Editors and agents run the commands their project files name: VS Code a
// task (some as the folder opens), a launch configuration's runtime, the
// programs its settings name (git.path, a terminal profile's shell); a
// dev container its lifecycle commands (initializeCommand on the host);
// JetBrains IDEs a run configuration's script; an agent the MCP servers of
// .mcp.json. These read the commands out of such files, as shell command
// lines.

// editorKind is the kind of an editor's or agent's file by its path, or
// NotPersisted.
func editorKind(p, base string) Persisted {
	switch {
	case strings.HasSuffix(p, "/.vscode/tasks.json"):
		return EditorTasks
	case strings.HasSuffix(p, "/.vscode/launch.json"):
		return EditorLaunch
	case strings.HasSuffix(p, "/.vscode/settings.json"), strings.HasSuffix(base, ".code-workspace"),
		strings.HasSuffix(p, "/Code/User/settings.json"):
		return EditorSettings
	case base == ".devcontainer.json" || base == "devcontainer.json" && strings.Contains(p, "/.devcontainer/"):
		return DevContainer
	case strings.Contains(p, "/.idea/runConfigurations/") && strings.HasSuffix(base, ".xml"),
		strings.Contains(p, "/.run/") && strings.HasSuffix(base, ".run.xml"), strings.HasSuffix(p, "/.idea/workspace.xml"):
		return IDERunConfig
	case base == ".mcp.json" || base == ".claude.json" || strings.HasSuffix(p, "/.cursor/mcp.json") ||
		strings.HasSuffix(p, "/.vscode/mcp.json") || strings.HasSuffix(p, "/.gemini/settings.json"):
		return MCPServers
	}
	return NotPersisted
}

// vscodeTaskCommands are the command lines of a tasks.json's tasks (and of
// their linux, osx and windows variants): command then args.
func vscodeTaskCommands(doc map[string]any) []string {
	var out []string
	var task func(t map[string]any)
	task = func(t map[string]any) {
		if c, ok := t["command"].(string); ok && c != "" {
			out = append(out, joinCommand(c, stringList(t["args"])))
		}
		for _, os := range []string{"linux", "osx", "windows"} {
			if v, ok := t[os].(map[string]any); ok {
				task(v)
			}
		}
	}
	task(doc) // top-level command and options apply to every task
	if ts, ok := doc["tasks"].([]any); ok {
		for _, t := range ts {
			if m, ok := t.(map[string]any); ok {
				task(m)
			}
		}
	}
	return out
}

// launchCommands are the programs a launch.json's configurations start
// through a runtime (runtimeExecutable with runtimeArgs), and the command
// of a node-terminal configuration; a debugger's own program (the
// project's code, built by the debugger) is the project's.
func launchCommands(doc map[string]any) []string {
	var out []string
	cs, _ := doc["configurations"].([]any)
	for _, c := range cs {
		m, ok := c.(map[string]any)
		if !ok {
			continue
		}
		if r, ok := m["runtimeExecutable"].(string); ok && r != "" {
			out = append(out, joinCommand(r, stringList(m["runtimeArgs"])))
		}
		if cmd, ok := m["command"].(string); ok && cmd != "" {
			out = append(out, cmd)
		}
	}
	return out
}

// devContainerCommands are a dev container's lifecycle commands: a string
// is a shell command line, a list one program's argv, an object several
// commands in parallel.
var devContainerHooks = []string{"initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand",
	"postStartCommand", "postAttachCommand"}

func devContainerCommands(doc map[string]any) []string {
	var out []string
	var one func(v any)
	one = func(v any) {
		switch c := v.(type) {
		case string:
			out = append(out, c)
		case []any:
			if l := stringList(c); len(l) > 0 {
				out = append(out, joinCommand(shellQuote(l[0]), l[1:]))
			}
		case map[string]any:
			for _, k := range sortedKeys(c) {
				one(c[k])
			}
		}
	}
	for _, h := range devContainerHooks {
		if v, ok := doc[h]; ok {
			one(v)
		}
	}
	return out
}

// mcpCommands are the command lines of the MCP servers a file lists
// (mcpServers, or VS Code's servers): command then args.
func mcpCommands(doc map[string]any) []string {
	var out []string
	for _, key := range []string{"mcpServers", "servers"} {
		servers, _ := doc[key].(map[string]any)
		for _, name := range sortedKeys(servers) {
			s, _ := servers[name].(map[string]any)
			if c, ok := s["command"].(string); ok && c != "" {
				out = append(out, joinCommand(shellQuote(c), stringList(s["args"])))
			}
		}
	}
	return out
}

// ideaCommands are the scripts of a JetBrains file's run configurations:
// a shell configuration's SCRIPT_TEXT, or its script and interpreter.
func ideaCommands(text string) ([]string, bool) {
	root, err := parseXMLTree(text)
	if err != nil {
		return nil, false
	}
	var out []string
	root.walk(func(n *xnode) bool {
		if n.name != "configuration" {
			return true
		}
		opts := map[string]string{}
		n.walk(func(o *xnode) bool {
			if o.name == "option" {
				name, _ := o.attr("name")
				val, _ := o.attr("value")
				opts[name] = val
			}
			return true
		})
		if s := opts["SCRIPT_TEXT"]; s != "" && opts["EXECUTE_SCRIPT_FILE"] != "true" {
			out = append(out, s)
		}
		if s := opts["SCRIPT_PATH"]; s != "" && opts["EXECUTE_SCRIPT_FILE"] != "false" {
			prog := s
			if in := opts["INTERPRETER_PATH"]; in != "" {
				prog = shellQuote(in) + " " + shellQuote(s)
			}
			out = append(out, strings.TrimSpace(prog+" "+opts["SCRIPT_OPTIONS"]))
		}
		for _, k := range []string{"COMMAND", "EXE_PATH"} {
			if s := opts[k]; s != "" {
				out = append(out, s)
			}
		}
		return false
	})
	return out, true
}

// programSetting reports whether an editor setting's key names a program
// the editor runs by itself: git.path, a terminal's shell, an
// interpreter, a linter or formatter executable.
func programSetting(key string) bool {
	k := strings.ToLower(key)
	for _, s := range []string{".path", "path", ".executable", "executablepath", ".shell.linux", ".shell.osx",
		".shell.windows", "interpreterpath", ".command", ".serverpath", ".binpath"} {
		if strings.HasSuffix(k, s) && !strings.Contains(k, "exclude") && !strings.HasSuffix(k, "workspacepath") &&
			!strings.HasSuffix(k, "rootpath") && !strings.HasSuffix(k, "outputpath") {
			return true
		}
	}
	return false
}

// settingPrograms are the (key, program) pairs of the settings that name
// programs, at any depth (a terminal profile's path sits two levels down).
func settingPrograms(doc map[string]any) [][2]string {
	var out [][2]string
	var walk func(prefix string, m map[string]any, depth int)
	walk = func(prefix string, m map[string]any, depth int) {
		for _, k := range sortedKeys(m) {
			full := strings.TrimPrefix(prefix+"."+k, ".")
			switch v := m[k].(type) {
			case string:
				if programSetting(full) {
					out = append(out, [2]string{full, v})
				}
			case []any:
				if programSetting(full) {
					for _, s := range stringList(v) {
						out = append(out, [2]string{full, s})
					}
				}
			case map[string]any:
				if depth < 8 {
					walk(full, v, depth+1)
				}
			}
		}
	}
	walk("", doc, 0)
	return out
}

// systemProgramDirs are where installed programs live.
var systemProgramDirs = []string{"/usr/", "/bin/", "/sbin/", "/opt/", "/snap/", "/nix/", "/Applications/", "/Library/",
	"/usr/local/", "/opt/homebrew/", "C:\\", "c:\\"}

// projectToolDirs are where a project's own tool installs put programs.
var projectToolDirs = []string{".venv/bin/", "venv/bin/", "node_modules/.bin/", "node_modules/", ".tox/", "vendor/bin/",
	"${workspaceFolder}/.venv/", "${workspaceFolder}/venv/", "${workspaceFolder}/node_modules/"}

// untrustedProgram says why an editor setting's program is one the editor
// must not run by itself: one in a temporary or hidden directory, or a
// script the project holds in place of the tool the setting names. A bare
// name (found on PATH), an installed program and a project's own tool
// installs (.venv, node_modules) are ordinary.
func untrustedProgram(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || !strings.ContainsAny(v, `/\`) {
		return ""
	}
	for _, d := range []string{"/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/"} {
		if strings.HasPrefix(v, d) {
			return "a program in a temporary directory"
		}
	}
	for _, d := range projectToolDirs {
		if strings.HasPrefix(strings.TrimPrefix(v, "./"), d) || strings.HasPrefix(v, d) {
			return ""
		}
	}
	for _, c := range strings.Split(strings.ReplaceAll(v, `\`, "/"), "/") {
		if len(c) > 1 && c[0] == '.' && c != ".." && c != ".venv" {
			return "a program in a hidden directory"
		}
	}
	for _, d := range systemProgramDirs {
		if strings.HasPrefix(v, d) {
			return ""
		}
	}
	if strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "${env:HOME}") || strings.HasPrefix(v, "${userHome}") {
		return ""
	}
	switch path.Ext(v) {
	case ".sh", ".bash", ".py", ".js", ".rb", ".pl", ".ps1", ".cmd", ".bat":
		return "a script in place of the program the setting names"
	}
	return ""
}

// credentialDirs are the user's credential stores a container must not be
// handed with its own commands in reach of the network.
var credentialDirs = []string{".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gcloud", ".azure", ".netrc",
	".git-credentials", ".npmrc", ".pypirc", ".config/gh"}

// credentialMounts are the user credential stores a dev container's
// mounts (strings or objects) bind into it.
func credentialMounts(doc map[string]any) []string {
	var sources []string
	ms, _ := doc["mounts"].([]any)
	for _, m := range ms {
		switch v := m.(type) {
		case string:
			for _, part := range strings.Split(v, ",") {
				k, val, _ := strings.Cut(part, "=")
				if k = strings.TrimSpace(k); k == "source" || k == "src" {
					sources = append(sources, val)
				}
			}
		case map[string]any:
			if s, ok := v["source"].(string); ok {
				sources = append(sources, s)
			}
		}
	}
	if ra, ok := doc["runArgs"].([]any); ok {
		for _, a := range stringList(ra) {
			if src, _, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "--volume="), "-v="), ":"); ok {
				sources = append(sources, src)
			}
		}
	}
	var out []string
	for _, s := range sources {
		s = strings.TrimRight(s, "/")
		for _, d := range credentialDirs {
			if strings.HasSuffix(s, "/"+d) || s == "~/"+d {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// networkClient matches a program that sends data over the network.
var networkClient = lazyre.Regexp{Expr: `(^|[\s;&|(` + "`" + `])(curl|wget|nc|ncat|netcat|socat|scp|sftp|rsync|ssh|ftp|telnet|http|https|xh)(\s|$)`}

// stringList is v's string elements.
func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// joinCommand is a command line of a program (already a shell word or
// line) and its arguments, each quoted.
func joinCommand(prog string, args []string) string {
	var b strings.Builder
	b.WriteString(prog)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(shellQuote(a))
	}
	return b.String()
}

// permissionWords are the words of settings that widen what an editor's
// agent, tasks or workspace may do unasked: auto-approval, trust,
// automatic tasks, MCP servers. A task that runs on folderOpen widens too:
// it runs with no one starting it.
var permissionWords = []string{"approve", "allowautomatictasks", "trust", "permission", "yolo", "bypass", "dangerous",
	"chat.tools", "chat.agent", "mcp", "allowlist", "allowedcommands", "autorun", "autoexecute", "sandbox"}

// widens reports whether doc holds, at any depth, a setting whose key
// names a permission (permissionWords).
func widens(doc map[string]any, depth int) bool {
	for k, v := range doc {
		lk := strings.ToLower(k)
		if lk == "runon" && v == "folderOpen" {
			return true // a task that runs itself as the folder opens, unasked
		}
		for _, w := range permissionWords {
			if strings.Contains(lk, w) {
				return true
			}
		}
		if m, ok := v.(map[string]any); ok && depth < 8 && widens(m, depth+1) {
			return true
		}
		if l, ok := v.([]any); ok && depth < 8 {
			for _, e := range l {
				if m, ok := e.(map[string]any); ok && widens(m, depth+1) {
					return true
				}
			}
		}
	}
	return false
}
