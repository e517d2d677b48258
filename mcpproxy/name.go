package mcpproxy

import (
	"fmt"
	"path/filepath"
	"strings"
)

// isLauncher reports whether name is one of the commands that run another
// program named by their first operand; the server's name is taken from
// that operand instead.
func isLauncher(name string) bool {
	switch name {
	case "npx", "bunx", "pnpx", "uvx", "pipx", "node", "deno", "bun", "python", "python3", "uv", "env":
		return true
	}
	return false
}

// ServerName is the default name of a server in tool names
// (mcp__NAME__tool): the base name of the command, or of the first operand
// of a launcher such as npx, uvx or node, without an npm scope or version
// ("npx -y @modelcontextprotocol/server-filesystem@1 /tmp" →
// "server-filesystem"), with characters other than letters, digits, '-'
// and '_' replaced by '_'. It returns "server" when nothing is left.
func ServerName(argv []string) string {
	picked := ""
	for i, arg := range argv {
		if i > 0 && strings.HasPrefix(arg, "-") {
			continue
		}
		picked = stripVersion(arg)
		name := filepath.Base(picked)
		if i == 0 && isLauncher(name) {
			continue
		}
		if i > 0 && (name == "run" || name == "exec" || name == "tool") {
			continue // "uv run X", "pnpm exec X", "uv tool run X"
		}
		break
	}
	return sanitizeName(entryName(picked))
}

// entryName names a server by its program or script without a .js, .mjs,
// .cjs or .py extension; a generic entry file (index.js, dist/main.js) is
// named after the directory that holds it, above build directories:
// ".../server-filesystem/dist/index.js" → "server-filesystem".
func entryName(arg string) string {
	name := filepath.Base(arg)
	for _, ext := range []string{".js", ".mjs", ".cjs", ".py"} {
		name = strings.TrimSuffix(name, ext)
	}
	if !isGenericEntry(name) || !strings.ContainsAny(arg, `/\`) {
		return name
	}
	dir := filepath.Dir(arg)
	for isBuildDir(filepath.Base(dir)) {
		dir = filepath.Dir(dir)
	}
	if b := filepath.Base(dir); b != "." && b != string(filepath.Separator) {
		return b
	}
	return name
}

// isGenericEntry reports whether name is one of the entry file names that
// say nothing about the server.
func isGenericEntry(name string) bool {
	switch name {
	case "index", "main", "server", "cli", "__main__":
		return true
	}
	return false
}

// isBuildDir reports whether name is one of the directories between a
// package and its entry file.
func isBuildDir(name string) bool {
	switch name {
	case "dist", "build", "lib", "out", "bin", "src":
		return true
	}
	return false
}

func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isNameRune(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	for strings.Contains(out, "__") {
		out = strings.ReplaceAll(out, "__", "_")
	}
	out = strings.Trim(out, "_")
	if out == "" {
		return "server"
	}
	return out
}

func isNameRune(r rune) bool {
	return r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
}

// ValidateName checks a server name given by the user: letters, digits,
// '-' and '_', starting with a letter or digit, without "__" (which
// separates server and tool in mcp__NAME__tool).
func ValidateName(s string) error {
	if s == "" {
		return fmt.Errorf("empty server name (use letters, digits, '-' and '_')")
	}
	for _, r := range s {
		if !isNameRune(r) {
			return fmt.Errorf("server name %q contains %q (valid: letters, digits, '-' and '_')", s, r)
		}
	}
	if strings.Contains(s, "__") || s[0] == '_' || s[0] == '-' || s[len(s)-1] == '_' {
		return fmt.Errorf("server name %q must start with a letter or digit, must not end in '_' and must not contain \"__\"", s)
	}
	return nil
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
