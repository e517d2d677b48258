package paths

import (
	"errors"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolguard/toolguard/risk"
)

func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{"a/b", "~/x", "$HOME/../x", "..%2f", "a\x00", "/proc/self/root/etc", `a\..\b`, "/dev/fd/1", "%252e%252e/x"} {
		f.Add(s, "/w")
	}
	f.Fuzz(func(t *testing.T, p, cwd string) {
		got, err := Canonicalize(p, Env{Cwd: cwd}, "/h")
		if err != nil {
			var pe *PathError
			if !errors.As(err, &pe) || !(errors.Is(err, ErrInvalid) || errors.Is(err, ErrUnverifiable)) {
				t.Fatalf("Canonicalize(%q) error %v is not a *PathError of a known kind", p, err)
			}
			return
		}
		if strings.IndexByte(p, 0) >= 0 || !utf8.ValidString(p) {
			t.Fatalf("Canonicalize(%q) accepted a NUL byte or invalid UTF-8", p)
		}
		for _, form := range []string{got.Literal, got.Resolved} {
			if !strings.HasPrefix(form, "/") || strings.Contains(form, "//") || strings.Contains(form, "/./") ||
				strings.HasSuffix(form, "/..") || strings.Contains(form, "/../") || len(form) > 1 && strings.HasSuffix(form, "/") {
				t.Fatalf("Canonicalize(%q) = %+v: a form is not clean and absolute", p, got)
			}
		}
	})
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"src/main.go", "~/.ssh/id_rsa", "../../etc/shadow", "%2e%2e/x", "x\x00y", "$X", "/dev/null", "\xff"} {
		f.Add(s, uint8(0))
	}
	c, err := Compile(Config{Home: "/h", Denied: DefaultDenied(), Sensitive: DefaultSensitive(),
		SensitiveWrite: DefaultSensitiveWrite(), Protected: DefaultProtected(), WorkspaceOnly: true,
		Roots: []string{"../r"}, Rules: []Rule{{Pattern: "<workspace>/gen/**", Write: risk.Ask}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string, access uint8) {
		fs := c.Check(p, Access(access%4), Env{Cwd: "/w"})
		_, cerr := Canonicalize(p, Env{Cwd: "/w"}, "/h")
		mustDeny := strings.IndexByte(p, 0) >= 0 || !utf8.ValidString(p) || errors.Is(cerr, ErrInvalid) || access%4 > 2
		if mustDeny && !hasVerdict(fs, risk.Deny) {
			t.Fatalf("Check(%q, %d) = %+v: invalid input without a deny", p, access, fs)
		}
		if errors.Is(cerr, ErrUnverifiable) && access%4 <= 2 && (len(fs) == 0 || !fs[0].Unverifiable || fs[0].Verdict != risk.Ask) {
			t.Fatalf("Check(%q) = %+v: unverifiable path without an unverifiable ask", p, fs)
		}
		for _, f := range fs {
			if f.Rule == "" || f.Reason == "" || f.Subject == "" && p != "" {
				t.Fatalf("Check(%q) finding %+v lacks a rule, reason or subject", p, f)
			}
		}
	})
}

func hasVerdict(fs []risk.Finding, v risk.Verdict) bool {
	for _, f := range fs {
		if f.Verdict == v {
			return true
		}
	}
	return false
}

// FuzzComponentsMeetShortcut: the check of the first and last atoms in
// front of componentsMeet's search never changes its answer, for globs of
// either syntax and for the hidden-dot rule of shell globs.
func FuzzComponentsMeetShortcut(f *testing.F) {
	for _, c := range [][2]string{{"*.pem", "id_rsa"}, {".ssh", ".s*"}, {"[a-c]x", "b?"}, {"*", ".env"}, {"a*b", "a"}, {"x", ""}, {"*", "*"}, {"[z-a]", "*"}, {"*", "[.]x"}} {
		f.Add(c[0], c[1], false)
		f.Add(c[0], c[1], true)
	}
	f.Fuzz(func(t *testing.T, x, y string, shell bool) {
		if len(x) > 32 || len(y) > 32 || strings.Contains(x+y, "/") {
			return
		}
		a, b := parseGlob(x, shell), parseGlob(y, !shell)
		if len(a) != 1 || len(b) != 1 || a[0].deep || b[0].deep {
			return
		}
		if got, want := componentsMeet(a[0], b[0]), componentsSearch(a[0], b[0]); got != want {
			t.Fatalf("componentsMeet(%q, %q) = %v, the search says %v", x, y, got, want)
		}
	})
}

// FuzzLookupsAgree: judging a path with the call's Lookups remembering the
// file system's answers gives the findings judging it afresh does, even
// after other paths were judged with the same Lookups.
func FuzzLookupsAgree(f *testing.F) {
	for _, c := range [][2]string{{"~/.ssh/id_rsa", "./a/../b"}, {"/etc/passwd", "/etc/../etc/shadow"}, {"x/y", "../../z"},
		{"l/passwd", "a/l/../x"}, {"h/.ssh/k", "a/b"}} {
		f.Add(c[0], c[1])
	}
	dir := f.TempDir()
	for _, err := range []error{os.MkdirAll(dir+"/a/b", 0o755), os.MkdirAll(dir+"/home/.ssh", 0o700),
		os.Symlink("/etc", dir+"/l"), os.Symlink("../home", dir+"/h"), os.Symlink("../l", dir+"/a/l")} {
		if err != nil {
			f.Fatal(err)
		}
	}
	c, err := Compile(Config{Home: dir + "/home"})
	if err != nil {
		f.Fatal(err)
	}
	l := &Lookups{}
	f.Fuzz(func(t *testing.T, p, q string) {
		for _, s := range []string{p, q} {
			plain := c.Check(s, Write, Env{Cwd: dir, Workspace: dir})
			cached := c.Check(s, Write, Env{Cwd: dir, Workspace: dir, Lookups: l})
			if !reflect.DeepEqual(plain, cached) {
				t.Fatalf("%q: %v without Lookups, %v with", s, plain, cached)
			}
		}
	})
}

// FuzzCheckGlob: a glob operand of any shape is judged without a panic,
// every finding names its rule and reason, and the index's shortcuts give
// the verdict and rule the slow comparison of every pattern gives.
func FuzzCheckGlob(f *testing.F) {
	for _, s := range [][2]string{{"/w/.husky", "pre-*"}, {"/w/.git/refs/heads", "*"}, {"/h/.ssh", "id_*"},
		{"/w/reports", "*.json"}, {"/w", ".claude/*/*.md"}, {"/w/.git", "*.lock"}, {"/h", "*"}, {"/w", "{a,b}/.env*"}} {
		f.Add(s[0], s[1], uint8(1))
	}
	cfg := DefaultConfig()
	cfg.Home = "/h"
	c, err := Compile(cfg)
	if err != nil {
		f.Fatal(err)
	}
	env := Env{Cwd: "/w", Workspace: "/w"}
	f.Fuzz(func(t *testing.T, dir, rest string, access uint8) {
		if !strings.HasPrefix(dir, "/") || path.Clean(dir) != dir || !utf8.ValidString(dir+rest) {
			return
		}
		a := Access(access % 3)
		cp := Path{Literal: dir, Resolved: dir}
		fast, slow := c.checkGlob(cp, rest, a, env, false), c.checkGlob(cp, rest, a, env, true)
		for _, f := range fast {
			if f.Rule == "" || f.Reason == "" {
				t.Fatalf("CheckGlob(%q, %q) finding %+v lacks a rule or reason", dir, rest, f)
			}
		}
		if v, r, sv, sr := worstOf(fast, slow); v != sv || r != sr {
			t.Fatalf("CheckGlob(%q, %q, %v): shortcuts give %v %s, the slow path %v %s", dir, rest, a, v, r, sv, sr)
		}
	})
}

// worstOf returns the strongest verdict and its rule of each list.
func worstOf(a, b []risk.Finding) (risk.Verdict, string, risk.Verdict, string) {
	v, r := worstRule(a)
	sv, sr := worstRule(b)
	return v, r, sv, sr
}

// worstRule is the most restrictive verdict among findings and the rule
// of its first finding.
func worstRule(fs []risk.Finding) (risk.Verdict, string) {
	v, rule := risk.Allow, ""
	for _, f := range fs {
		if f.Verdict > v {
			v, rule = f.Verdict, f.Rule
		}
	}
	return v, rule
}

// FuzzDotSlash: a relative path judged without its leading "./" elements
// (absolute's withoutDotSlash) canonicalizes as it does joined whole to
// the working directory, on the disk of the test (a symlink and a missing
// name under it included).
func FuzzDotSlash(f *testing.F) {
	dir := f.TempDir()
	if err := os.MkdirAll(dir+"/d/e", 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink(dir+"/d/e", dir+"/l"); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"./a", "././d/e", "./l/..", ".//l", "./", "./.", "./..", "./l/./x/../y", "./missing/../d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if validateText(p) != nil || strings.HasPrefix(p, "/") {
			return // refused, or not joined to the working directory
		}
		if e, err := expandHome(p, "/h"); err != nil || e != p {
			return // refused, or a path under the home
		}
		got, err := Canonicalize(p, Env{Cwd: dir}, "/h")
		abs := dir + "/" + p // what absolute joined before
		want, werr := resolve(abs)
		if (err != nil) != (werr != nil) {
			t.Fatalf("Canonicalize(%q): error %v, joined whole %v", p, err, werr)
		}
		if err == nil && (got.Resolved != want || got.Literal != cleanPath(abs)) {
			t.Fatalf("Canonicalize(%q) = %+v, joined whole: resolved %q, literal %q", p, got, want, cleanPath(abs))
		}
	})
}
