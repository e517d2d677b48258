package analysis

import (
	"slices"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
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
var homeJoinRE = lazyre.Regexp{
	Expr: `(?i)(?:path\.join|path\.resolve|os\.path\.join|filepath\.join|paths\.get|path\.of|file\.join|join_paths)\s*\(\s*` +
		`([A-Za-z_.$]*(?:\([^()]{0,40}\))?[A-Za-z_.]*)\s*,\s*((?:["'][^"'\n]+["']\s*,?\s*)+)\)` +
		`|(?i)(?:path\.home\(\)|path\(\s*["']~["']\s*\)\.expanduser\(\)|path\.expanduser\(\s*["']~["']\s*\))((?:\s*/\s*["'][^"'\n]+["'])+)`,
}

// homeJoinAtRE is homeJoinRE anchored at the start of the text: it is run
// only where homeJoinMayStart says a match can start.
var homeJoinAtRE = lazyre.Regexp{Expr: `^(?:` + homeJoinRE.Expr + `)`}

// homeJoinStarts are the words, folded to lower case, one of which begins
// every match of homeJoinRE: each alternative of the call names and of the
// pathlib homes starts with one of them.
var homeJoinStarts = [...]string{"path", "os.path", "filepath", "file.join", "join_paths"}

// homeJoinMayStart reports whether a match of homeJoinRE can start at the
// start of s (ASCII text): s begins with one of homeJoinStarts, any case.
func homeJoinMayStart(s string) bool {
	switch s[0] | 0x20 {
	case 'p', 'o', 'f', 'j':
	default:
		return false
	}
	for _, w := range homeJoinStarts {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) {
			return true
		}
	}
	return false
}

// homeJoinMatches is homeJoinRE.FindAllStringSubmatch(code, 32), run
// anchored where homeJoinMayStart lets a match start (anchoredMatches; a
// match is never empty: it holds a call name).
// TestHomeJoinMatchesAsExpression and FuzzHomeJoinMatches check it
// against the expression.
func homeJoinMatches(code string) [][]string {
	return anchoredMatches(code, &homeJoinRE, &homeJoinAtRE, 32, func(code string, s int) bool { return homeJoinMayStart(code[s:]) })
}

// homeLitRE is one quoted part of a join.
var homeLitRE = lazyre.Regexp{Expr: `["']([^"'\n]+)["']`}

// homeJoins returns the home-relative paths (~/a/b) that code builds by
// joining parts to the home directory.
func homeJoins(code string) []string {
	if low := strings.ToLower(code); !strings.Contains(low, "home") && !strings.Contains(low, "expanduser") {
		return nil // every join this finds names the home directory
	}
	var out []string
	for _, m := range homeJoinMatches(code) {
		parts := m[3]
		if m[2] != "" {
			if !isHomeExpr(m[1]) {
				continue
			}
			parts = m[2]
		}
		if p := homeLiterals(parts); p != "" {
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
	return containsAny(low, []string{"homedir()", "expanduser(", ".home()", "user.home", "userhomedir", "env.home", "home_dir()",
		"user_home", "homedirectoryforcurrentuser", "nshomedirectory()", "dir.home"})
}

// Code also builds a home path by formatting: format!("{}/.ssh/id_rsa",
// home) in Rust, f"{home}/.aws/credentials" in Python, "#{Dir.home}/.ssh"
// in Ruby and Elixir, `${os.homedir()}/.npmrc` in JavaScript,
// "\(home)/.ssh" in Swift, "%s/.netrc" % home. A literal that starts with
// such a placeholder and goes on with a path is a home-relative path when
// the placeholder is a home expression, or when it is a bare name or an
// empty {} and the code names the home directory elsewhere.

// homeTemplateRE finds a quoted literal that starts with a placeholder
// (groups 1 to 4 its expression, empty for {} or %s) followed by a path
// (group 5).
var homeTemplateRE = lazyre.Regexp{
	Expr: `["'\x60](?:\{([^{}"'\n]{0,48})\}|#\{([^{}"'\n]{0,48})\}|\$\{([^{}"'\n]{0,48})\}|\\\(([^()"'\n]{0,48})\)|%s)(/[^"'\x60\s{}#$%\\]+)["'\x60]`,
}

// homeTemplateAtRE is homeTemplateRE anchored at the start of the text.
var homeTemplateAtRE = lazyre.Regexp{Expr: `^(?:` + homeTemplateRE.Expr + `)`}

// homeTemplateMatches is homeTemplateRE.FindAllStringSubmatch(code, 16),
// run anchored only at a quote followed by the start of a placeholder
// ({, #{, ${, \( or %s), where every match starts (anchoredMatches).
// TestHomeTemplateMatchesAsExpression checks it against the expression.
func homeTemplateMatches(code string) [][]string {
	return anchoredMatches(code, &homeTemplateRE, &homeTemplateAtRE, 16, func(code string, s int) bool {
		switch code[s] {
		case '"', '\'', '`':
		default:
			return false
		}
		if s+1 == len(code) {
			return false
		}
		switch code[s+1] {
		case '{', '#', '$', '\\', '%':
			return true
		}
		return false
	})
}

// homeTemplates returns the home-relative paths (~/a/b) of code's
// formatted literals; namesHome says whether the code names the home
// directory elsewhere.
func homeTemplates(code string, namesHome bool) []string {
	if !strings.Contains(code, "/.") && !namesHome || !homeTemplateRE.MayMatch(code) {
		return nil
	}
	var out []string
	for _, m := range homeTemplateMatches(code) {
		expr := strings.TrimSpace(m[1] + m[2] + m[3] + m[4])
		rest := strings.TrimRight(m[5], "/")
		if rest == "" || strings.Contains(rest, "..") {
			continue
		}
		low := strings.ToLower(expr)
		home := isHomeExpr(expr) || containsAny(low, homeMarkers) || containsAny(low, homeExprMarkers)
		if !home && namesHome && (expr == "" || isIdent(expr)) {
			home = true
		}
		if home {
			out = append(out, "~"+rest)
		}
	}
	return out
}

// isIdent reports whether s is a bare name (a variable), dots allowed.
func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && c != '.' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// homeMethodJoinRE finds a home expression followed by method joins of
// string literals (group 1): Rust's dirs::home_dir().unwrap().join(".ssh"),
// Path::new(&home).join(".aws/credentials"), pathlib's
// Path.home().joinpath(".ssh") and its several parts in one call
// (joinpath(".cursor", "hooks.json")), Swift's
// homeDirectoryForCurrentUser.appendingPathComponent(".ssh").
var homeMethodJoinRE = lazyre.Regexp{
	Expr: `(?i)(?:home_dir\(\)(?:\.unwrap\(\)|\?|\.expect\([^()\n]{0,40}\))?|homedirectoryforcurrentuser|path\.home\(\)|(?:path::new|pathbuf::from)\(\s*&?home(?:_dir)?\s*\))` +
		`((?:\s*\.(?:join|joinpath|appendingpathcomponent|appending\(path:)\(?\s*["'][^"'\n]+["'](?:\s*,\s*["'][^"'\n]+["']){0,7}\s*\))+)`,
}

// homeMethodJoins returns the home-relative paths code builds by joining
// literals to a home expression with a method.
func homeMethodJoins(code string) []string {
	if !homeMethodJoinRE.MayMatch(code) { // home_dir(), path.home(), …: each holds "home"
		return nil
	}
	var out []string
	for _, m := range homeMethodJoinRE.Get().FindAllStringSubmatch(code, 16) {
		if p := homeLiterals(m[1]); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// homeLiterals is the home path the string literals of a join's arguments
// spell ("~/.ssh/id_rsa"), leaving out empty parts and any with ".."; ""
// when they spell nothing below the home.
func homeLiterals(parts string) string {
	var b strings.Builder
	b.WriteString("~")
	for _, lit := range homeLitRE.Get().FindAllStringSubmatch(parts, 8) {
		part := strings.Trim(lit[1], "/")
		if part == "" || strings.Contains(part, "..") {
			continue
		}
		b.WriteString("/" + part)
	}
	if p := b.String(); p != "~" {
		return p
	}
	return ""
}

// Code also builds a home path from a part it holds in a variable:
// `${os.homedir()}/${name}`, f"{Path.home()}/{p}", path.join(os.homedir(),
// name), os.path.expanduser(f"~/{name}"), Path.home() / name. The part is
// not known, but the code holds the parts it means among its literals
// (grab(".npmrc"), for f in (".netrc", ".aws/credentials")): each literal
// that spells a dotfile path is a home path the code may reach.

// homeVarJoinRE finds a home expression joined to a variable part: a
// template whose first placeholder (group 1) is followed by / and a
// second placeholder, a join call whose first argument (group 2) is
// followed by a bare name, "~/" followed by a placeholder, or pathlib's
// home followed by a name.
var homeVarJoinRE = lazyre.Regexp{
	Expr: `(?i)(?:\$\{|#\{|\{)([^{}"'\x60\n]{1,48})\}/(?:\$\{|#\{|\{)[a-z_][\w.]*\}` +
		`|(?:path\.join|path\.resolve|os\.path\.join|filepath\.join|paths\.get|path\.of|file\.join|join_paths)\s*\(\s*` +
		`([a-z_.$]*(?:\([^()]{0,40}\))?[a-z_.]*)\s*,\s*[a-z_$][\w$]*\s*\)` +
		`|["'\x60]~/(?:\$\{|#\{|\{)[a-z_][\w.]*\}` +
		`|path\.home\(\)\s*(?:/\s*[a-z_]\w*\b|\.joinpath\(\s*[a-z_]\w*\s*\))`,
}

// homeVarJoinAtRE is homeVarJoinRE anchored at the start of the text: it
// is run only where homeVarJoinMayStart says a match can start.
var homeVarJoinAtRE = lazyre.Regexp{Expr: `^(?:` + homeVarJoinRE.Expr + `)`}

// homeVarJoinMayStart reports whether a match of homeVarJoinRE can start
// at code[s:] (ASCII text): at a "{", "${" or "#{" (a template), a quote
// before "~/", or one of homeJoinStarts in any case (the join calls and
// path.home()).
func homeVarJoinMayStart(code string, s int) bool {
	switch code[s] {
	case '{':
		return true
	case '$', '#':
		return s+1 < len(code) && code[s+1] == '{'
	case '"', '\'', '`':
		return len(code)-s >= 3 && code[s+1:s+3] == "~/"
	}
	return homeJoinMayStart(code[s:])
}

// homeVarJoinMatches is homeVarJoinRE.FindAllStringSubmatch(code, 8), run
// anchored where homeVarJoinMayStart lets a match start (anchoredMatches;
// a match is never empty). TestHomeVarJoinMatchesAsExpression checks it
// against the expression.
func homeVarJoinMatches(code string) [][]string {
	return anchoredMatches(code, &homeVarJoinRE, &homeVarJoinAtRE, 8, homeVarJoinMayStart)
}

// homeVarJoin reports whether code joins a variable part to a home
// expression (homeVarJoinRE).
func homeVarJoin(code string) bool {
	if !homeVarJoinRE.MayMatch(code) {
		return false
	}
	for _, m := range homeVarJoinMatches(code) {
		if expr := m[1] + m[2]; expr == "" || isHomeExpr(expr) {
			return true
		}
	}
	return false
}

// homeVarParts returns, for code that joins a variable part to the home
// directory (homeVarJoin), its literals that spell a dotfile path as home
// paths (".aws/credentials" → "~/.aws/credentials"), at most 16.
func homeVarParts(code string) []string {
	if low := strings.ToLower(code); !strings.Contains(low, "home") && !strings.Contains(low, "expanduser") && !strings.Contains(low, "~/") ||
		!strings.Contains(code, `".`) && !strings.Contains(code, `'.`) && !strings.Contains(code, "`.") {
		return nil
	}
	var out []string
	for _, l := range stringLiterals(code) {
		if dotfilePart(l) && !slices.Contains(out, "~/"+l) {
			out = append(out, "~/"+l)
			if len(out) == 16 {
				break
			}
		}
	}
	if out == nil || !homeVarJoin(code) { // the literals first: they cost less to find than the join
		return nil
	}
	return out
}

// dotfilePart reports whether a literal spells a relative path that
// starts with a dotfile (.npmrc, .aws/credentials, .ssh/id_rsa): a dot, a
// letter, then letters, digits, '.', '_', '-' and '/' between parts, with
// no ".." part. A single name of at most four characters after its dot
// (".js", ".json", ".yaml") is a file extension, not a file.
func dotfilePart(l string) bool {
	if len(l) < 2 || l[0] != '.' || !isLetter(l[1]) || strings.Contains(l, "..") || strings.Contains(l, "//") ||
		strings.HasSuffix(l, "/") {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '.' && c != '_' && c != '-' && c != '/' {
			return false
		}
	}
	return strings.Contains(l, "/") || len(l) > 5
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
