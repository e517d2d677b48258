package buildfile

import (
	"strings"
)

// A CI configuration (a GitHub Actions workflow, .gitlab-ci.yml, …) is
// code a CI service runs on the next push, with the repository's secrets
// in reach: whoever writes a step that posts them schedules their leak.
// ciCommands reads the shell steps out of such a file by its lines, not by
// a YAML parser, so that an edit's fragment reads as the whole file does:
// the values of the keys that hold commands (run, script, before_script,
// after_script, command, commands, cmd), as one line or as a block
// scalar, and every list item (a script's entries; other lists' items read
// as commands that do nothing). The expressions the service substitutes
// before the shell runs (${{ secrets.X }}, ${{ toJSON(secrets) }}) become
// variables named for what they hold, spliced in as the shell would see
// them.

// ciConfigs are the CI configuration files, by their path's end.
var ciConfigs = []string{"/.gitlab-ci.yml", "/.circleci/config.yml", "/azure-pipelines.yml", "/bitbucket-pipelines.yml",
	"/.travis.yml", "/.drone.yml", "/.woodpecker.yml", "/.buildkite/pipeline.yml", "/.gitea/workflows/", "/.forgejo/workflows/",
	"/.github/workflows/", "/.woodpecker/"}

// isCIConfig reports whether the absolute path p is a CI configuration.
func isCIConfig(p string) bool {
	for _, c := range ciConfigs {
		if strings.HasSuffix(c, "/") {
			if i := strings.Index(p, c); i >= 0 && !strings.Contains(p[i+len(c):], "/") &&
				(strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
				return true
			}
			continue
		}
		if strings.HasSuffix(p, c) {
			return true
		}
	}
	return false
}

// ciCodeKeys are the keys whose values are shell commands.
var ciCodeKeys = map[string]bool{"run": true, "script": true, "before_script": true, "after_script": true,
	"command": true, "commands": true, "cmd": true, "pre": true, "post": true}

// ciCommands returns the shell commands of a CI configuration's text.
func ciCommands(text string) []string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		item := false
		for strings.HasPrefix(t, "- ") || t == "-" {
			t, item = strings.TrimSpace(strings.TrimPrefix(t, "-")), true
		}
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		key, value, isKey := ciKey(t)
		switch {
		case isKey && ciCodeKeys[key] && isBlockScalar(value):
			block, next := blockLines(lines, i, indentOf(line))
			out, i = append(out, ciSubstitute(block)), next
		case isKey && ciCodeKeys[key] && value != "":
			out = append(out, ciSubstitute(unquoteScalar(value)))
		case !isKey && item:
			out = append(out, ciSubstitute(unquoteScalar(t)))
		}
	}
	return out
}

// ciKey splits "key: value" when t starts with a YAML key.
func ciKey(t string) (key, value string, ok bool) {
	k, v, found := strings.Cut(t, ":")
	if !found || k == "" || strings.ContainsAny(k, " \t'\"$`|&;<>(){}") {
		return "", "", false
	}
	if v != "" && v[0] != ' ' && v[0] != '\t' {
		return "", "", false // a colon inside a word (http://…, a:b)
	}
	return k, strings.TrimSpace(v), true
}

func isBlockScalar(v string) bool {
	v, _, _ = strings.Cut(v, " #")
	v = strings.TrimSpace(v)
	return v != "" && (v[0] == '|' || v[0] == '>') && len(v) <= 3
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// blockLines returns the lines of the block scalar that starts after line
// i (those indented deeper than indent, and blank ones), without their
// common indentation, and the index of its last line.
func blockLines(lines []string, i, indent int) (string, int) {
	var b []string
	least := -1
	for i+1 < len(lines) {
		next := lines[i+1]
		if strings.TrimSpace(next) != "" {
			if indentOf(next) <= indent {
				break
			}
			if least < 0 || indentOf(next) < least {
				least = indentOf(next)
			}
		}
		b = append(b, next)
		i++
	}
	for j, l := range b {
		if len(l) >= least && least > 0 {
			b[j] = l[least:]
		} else {
			b[j] = strings.TrimSpace(l)
		}
	}
	return strings.Join(b, "\n"), i
}

// unquoteScalar removes the quotes of a quoted YAML scalar.
func unquoteScalar(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		inner := v[1 : len(v)-1]
		if v[0] == '\'' {
			return strings.ReplaceAll(inner, "''", "'")
		}
		return strings.ReplaceAll(inner, `\"`, `"`)
	}
	return v
}

// ciSubstitute replaces each ${{ … }} expression by the variable that
// names what it holds, spliced in where it stands: inside single quotes
// it closes and reopens them, as the text the shell receives would.
func ciSubstitute(s string) string {
	if !strings.Contains(s, "${{") {
		return s
	}
	var b strings.Builder
	inSingle, inDouble := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '$' && strings.HasPrefix(s[i:], "${{") {
			end := strings.Index(s[i:], "}}")
			if end < 0 {
				b.WriteString(s[i:])
				break
			}
			name := ciExprVar(s[i+3 : i+end])
			switch {
			case inSingle:
				b.WriteString(`'"$` + name + `"'`)
			case inDouble:
				b.WriteString("$" + name)
			default:
				b.WriteString(`"$` + name + `"`)
			}
			i += end + 1
			continue
		}
		switch {
		case c == '\'' && !inDouble:
			inSingle = !inSingle
		case c == '"' && !inSingle:
			inDouble = !inDouble
		case c == '\\' && !inSingle && i+1 < len(s):
			b.WriteByte(c)
			i++
			c = s[i]
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ciExprVar names the variable standing for an expression: the secrets
// (CI_SECRETS), the workflow's token (GITHUB_TOKEN), anything else
// (CI_VALUE).
func ciExprVar(expr string) string {
	e := strings.ToLower(expr)
	switch {
	case strings.Contains(e, "secrets"):
		return "CI_SECRETS"
	case strings.Contains(e, "github.token"):
		return "GITHUB_TOKEN"
	}
	return "CI_VALUE"
}
