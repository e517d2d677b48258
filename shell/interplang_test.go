package shell

import "testing"

// interpreterLangBefore is interpreterLang as it was written before its
// switch on the first byte.
func interpreterLangBefore(name string) string {
	switch {
	case isVersioned(name, "python") || isVersioned(name, "pypy"):
		return "python"
	case name == "node" || name == "nodejs" || name == "bun" || name == "deno":
		return "node"
	case isVersioned(name, "perl"):
		return "perl"
	case isVersioned(name, "ruby"):
		return "ruby"
	case isVersioned(name, "php"):
		return "php"
	case isVersioned(name, "lua") || name == "luajit":
		return "lua"
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		return "awk"
	case name == "osascript":
		return "applescript"
	case name == "pwsh" || name == "powershell":
		return "powershell"
	case name == "nu":
		return "nushell"
	}
	return ""
}

// TestInterpreterLangAsBefore: every interpreter name, versioned and not,
// look-alikes and ordinary programs get the former answer.
func TestInterpreterLangAsBefore(t *testing.T) {
	names := []string{"", "python", "python3", "python3.12", "pypy3", "node", "nodejs", "bun", "deno", "perl",
		"perl5.36", "ruby", "ruby3.2", "php", "php8", "lua", "lua5.4", "luajit", "awk", "gawk", "mawk", "nawk",
		"osascript", "pwsh", "powershell", "nu", "go", "echo", "cp", "git", "grep", "[", "true", "Python", "python-x",
		"pythonx", "nodes", "bunx", "denox", "rubyx", "luax", "awkx", "nux", "n", "p", "a", "ls", "zsh", "bash"}
	for _, n := range names {
		if got, want := interpreterLang(n), interpreterLangBefore(n); got != want {
			t.Errorf("interpreterLang(%q) = %q, want %q", n, got, want)
		}
	}
}

func FuzzInterpreterLang(f *testing.F) {
	for _, s := range []string{"python3.12", "node", "go", "luajit", "[", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := interpreterLang(name), interpreterLangBefore(name); got != want {
			t.Errorf("interpreterLang(%q) = %q, want %q", name, got, want)
		}
	})
}
