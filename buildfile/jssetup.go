package buildfile

import (
	"path"
	"slices"
	"strings"
)

// A test runner's configuration names files it runs before the tests, in
// the same Node process: vitest's globalSetup and setupFiles, jest's
// globalSetup, globalTeardown, setupFiles and setupFilesAfterEnv,
// Playwright's globalSetup and globalTeardown, mocha's require and file.
// Each such file of the project (a path: ./test/setup.ts,
// <rootDir>/jest.setup.js, test/setup.ts — not a package's name) that
// exists is one more step, whole, in Node's language, after the
// configuration. A name given other than as a literal (a variable, a
// template with ${…}) is not followed; the configuration's own code is
// judged as its step.

// jsSetupExts are the extensions tried for a setup file named without one,
// in the order Node's resolution (and vite's) tries them.
var jsSetupExts = []string{".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".tsx", ".jsx"}

// maxSetupNames bounds the files one configuration's setup keys name.
const maxSetupNames = 32

// jsSetup adds, as steps run in dir, the setup files named that exist,
// relative to base (a name starting with <rootDir> relative to the
// configuration's directory, which base then is).
func (r *resolver) jsSetup(names []string, base, dir string) {
	for _, n := range names {
		n = strings.TrimPrefix(n, "<rootDir>/")
		p := join(base, n)
		tries := []string{p}
		if !hasExt(p, jsSetupExts) {
			tries = tries[:0]
			for _, e := range jsSetupExts {
				tries = append(tries, p+e)
			}
		}
		for _, t := range tries {
			if text, ok := r.read(t); ok {
				r.step(Step{File: t, Text: text, Lang: "node", Dir: dir})
				break
			}
			if r.failedOn(t) {
				break
			}
		}
	}
}

// jsSetupNames returns the files the configuration text names under the
// keys (key: "file" or key: ["a", "b"], a call such as
// require.resolve("./x") or path.join(__dirname, "x") taken by its string
// literals), once each, at most maxSetupNames; a literal that is no path
// of the project (a package name, a word) is left out.
func jsSetupNames(text string, keys []string) []string {
	var out []string
	for _, k := range keys {
		for from := 0; ; {
			i := strings.Index(text[from:], k)
			if i < 0 {
				break
			}
			i += from
			from = i + len(k)
			if i > 0 && isIdentByte(text[i-1]) || from < len(text) && isIdentByte(text[from]) {
				continue // part of a longer name (setupFilesAfterEnv for setupFiles)
			}
			v, ok := jsKeyValue(text[from:])
			if !ok {
				continue
			}
			for _, lit := range jsStringLiterals(v) {
				if len(out) < maxSetupNames && isSetupPath(lit) && !slices.Contains(out, lit) {
					out = append(out, lit)
				}
			}
		}
	}
	return out
}

// jsKeyValue is the value after a key in an object literal (rest starts
// just after the key's name): what follows an optional closing quote,
// spaces and a colon, up to the comma, newline or brace that ends it at
// its own depth (a bracketed list whole); false when no colon follows.
func jsKeyValue(rest string) (string, bool) {
	if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
		rest = rest[1:]
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || rest[0] != ':' {
		return "", false
	}
	rest = rest[1:]
	depth := 0
	var quote byte
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '[' || c == '(' || c == '{':
			depth++
		case c == ']' || c == ')' || c == '}':
			if depth == 0 {
				return rest[:i], true
			}
			depth--
		case (c == ',' || c == '\n' || c == ';') && depth == 0:
			return rest[:i], true
		}
	}
	return rest, true
}

// jsStringLiterals are the string literals of JavaScript text, in order;
// a template literal with a substitution is left out.
func jsStringLiterals(v string) []string {
	var out []string
	for i := 0; i < len(v); i++ {
		q := v[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(v) && v[j] != q; j++ {
			if v[j] == '\\' && j+1 < len(v) {
				j++
			}
			b.WriteByte(v[j])
		}
		if j == len(v) {
			break // not closed
		}
		if s := b.String(); q != '`' || !strings.Contains(s, "${") {
			out = append(out, s)
		}
		i = j
	}
	return out
}

// isSetupPath reports whether a setup entry names a file of the project
// rather than a package: a relative or absolute path, jest's <rootDir>/…,
// or a path with a directory and a module's extension (test/setup.ts).
func isSetupPath(s string) bool {
	switch {
	case s == "" || strings.ContainsAny(s, "\n\x00"):
		return false
	case strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "<rootDir>/"):
		return true
	}
	return !strings.HasPrefix(s, "@") && strings.Contains(s, "/") && hasExt(path.Base(s), jsSetupExts)
}

// isIdentByte reports whether c can be part of a JavaScript identifier.
func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
