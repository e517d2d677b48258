package analysis

import (
	"strings"
)

// Code often builds a path in the home directory by joining its parts
// rather than spelling it: path.join(os.homedir(), ".gemini",
// "settings.json"), os.path.join(os.path.expanduser("~"), ".ssh",
// "id_rsa"), Path.home() / ".aws" / "credentials", filepath.Join(home,
// ".config"). Each such join is a home-relative path, ~/.gemini/settings.json,
// judged like one spelled out.

// homeJoinRE finds a join call whose first argument is a home expression
// (group 1) followed by string literals (group 2), or a pathlib home
// followed by / "literal" parts (group 3).
var homeJoinRE = lazyRegexp{
	expr: `(?i)(?:path\.join|path\.resolve|os\.path\.join|filepath\.join|paths\.get|path\.of|file\.join|join_paths)\s*\(\s*` +
		`([A-Za-z_.$]*(?:\([^()]{0,40}\))?[A-Za-z_.]*)\s*,\s*((?:["'][^"'\n]+["']\s*,?\s*)+)\)` +
		`|(?i)(?:path\.home\(\)|path\(\s*["']~["']\s*\)\.expanduser\(\)|path\.expanduser\(\s*["']~["']\s*\))((?:\s*/\s*["'][^"'\n]+["'])+)`,
}

// homeLitRE is one quoted part of a join.
var homeLitRE = lazyRegexp{expr: `["']([^"'\n]+)["']`}

// homeJoins returns the home-relative paths (~/a/b) that code builds by
// joining parts to the home directory.
func homeJoins(code string) []string {
	if low := strings.ToLower(code); !strings.Contains(low, "home") && !strings.Contains(low, "expanduser") {
		return nil // every join this finds names the home directory
	}
	var out []string
	for _, m := range homeJoinRE.get().FindAllStringSubmatch(code, 32) {
		parts := m[3]
		if m[2] != "" {
			if !isHomeExpr(m[1]) {
				continue
			}
			parts = m[2]
		}
		var b strings.Builder
		b.WriteString("~")
		for _, lit := range homeLitRE.get().FindAllStringSubmatch(parts, 8) {
			part := strings.Trim(lit[1], "/")
			if part == "" || strings.Contains(part, "..") {
				continue
			}
			b.WriteString("/" + part)
		}
		if p := b.String(); p != "~" {
			out = append(out, p)
		}
	}
	return out
}

// isHomeExpr reports whether the first argument of a join is the home
// directory: a call or a variable named for it.
func isHomeExpr(expr string) bool {
	low := strings.ToLower(strings.TrimSpace(expr))
	switch low {
	case "home", "homedir", "home_dir", "homedirectory", "userhome", "user_home", "$home":
		return true
	}
	return containsAny(low, []string{"homedir()", "expanduser(", ".home()", "user.home", "userhomedir", "env.home", "home_dir()"})
}
