package paths

import "strings"

//go:generate go test -run ^TestBuiltinSourcesGenerated$ -update-builtin

// isBuiltin (builtin_gen.go, written by `go generate ./paths`) reports
// whether a pattern is a built-in one, by a switch the compiler turns into a
// binary search over constants (no table to build at start-up). The
// built-in patterns are the Default lists' and the agent settings files
// toolguard protects (hook.ProtectedPaths), sorted, once each. They are
// constants known to compile with any home holding no glob byte
// (TestBuiltinSourcesCompile), so Compile leaves a list made only of them
// and of literal absolute paths uncompiled until a judgement first asks it:
// a hook process judges no path against most lists, and classifying the
// ~260 patterns of every list was a tenth of its instructions.
// TestBuiltinSourcesGenerated fails when the table no longer matches the
// lists.

// knownValid reports whether every one of srcs compiles without error
// whatever the (glob-free) home: a built-in pattern, or a plain absolute
// one.
func knownValid(srcs []string) bool {
	for _, s := range srcs {
		if !plainAbs(s) && !isBuiltin(s) {
			return false
		}
	}
	return true
}

// plainAbs reports whether s is an absolute path whose only glob byte is
// '*' ("/dir/**", "/dir/*.token"), with no NUL: always a valid pattern.
// toolguard's own state and config directories and programs are such.
func plainAbs(s string) bool {
	if !strings.HasPrefix(s, "/") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || (isGlobMeta[c] && c != '*') {
			return false
		}
	}
	return true
}
