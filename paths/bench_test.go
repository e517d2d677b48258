package paths

import (
	"os"
	"testing"
)

func BenchmarkCheck(b *testing.B) {
	f := newFixture(b)
	cfg := DefaultConfig()
	cfg.Home = f.home
	c, err := Compile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	env := Env{Cwd: f.ws}
	cases := []struct {
		name, path string
		access     Access
		findings   int
	}{
		{"workspace-read", "src/main.go", Read, 0},
		{"workspace-write-new-file", "src/new_file.go", Write, 0},
		{"workspace-write-new-dir", "src/new/dir/file.go", Write, 0},
		{"denied-secret", "~/.ssh/id_rsa", Read, 1},
		{"symlinked-secret", "key", Read, 1},
		{"outside-write", "/tmp/x/y", Write, 1},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			if n := len(c.Check(bc.path, bc.access, env)); n != bc.findings {
				b.Fatalf("Check(%q) gave %d findings, want %d", bc.path, n, bc.findings)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.Check(bc.path, bc.access, env)
			}
		})
	}
}

func BenchmarkCompileDefault(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Home = "/h"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckGlob measures judging a glob operand and a directory tree
// against every denied, protected and sensitive pattern: the per-operand
// work of rm -rf d/*.go or cat ~/.*/*.
func BenchmarkCheckGlob(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Home = "/home/alice"
	c, err := Compile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	env := Env{Cwd: "/home/alice/project", Workspace: "/home/alice/project"}
	at := func(p string) Path { return Path{Literal: p, Resolved: p} }
	home := b.TempDir()
	if err := os.Mkdir(home+"/project", 0o755); err != nil {
		b.Fatal(err)
	}
	hcfg := DefaultConfig()
	hcfg.Home = home
	hc, err := Compile(hcfg)
	if err != nil {
		b.Fatal(err)
	}
	henv := Env{Cwd: home + "/project", Workspace: home + "/project"}
	cases := []struct {
		name string
		run  func() int
	}{
		{"workspace-glob", func() int { return len(c.CheckGlob(at("/home/alice/project/d"), "*.go", Delete, env)) }},
		{"home-dot-glob", func() int { return len(c.CheckGlob(at("/home/alice"), ".*/*", Read, env)) }},
		{"tree", func() int { return len(c.CheckTree(at("/home/alice/project/src"), Read, env)) }},
		// rm -rf "$HOME"/* "$HOME"/.[!.]* in a home that exists: what a
		// script that wipes the home costs (the dearest adversarial calls).
		{"home-star-delete", func() int { return len(hc.CheckGlob(at(home), "*", Delete, henv)) }},
		{"home-dotstar-delete", func() int { return len(hc.CheckGlob(at(home), ".[!.]*", Delete, henv)) }},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bc.run()
			}
		})
	}
}

// BenchmarkCheckPath measures the judgement alone, on paths canonicalised
// once: the part of Check that does no system calls (for paths inside the
// workspace; outside it the workspace itself is resolved on demand).
func BenchmarkCheckPath(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Home = "/home/alice"
	c, err := Compile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	env := Env{Cwd: "/home/alice/project"}
	cases := []struct {
		name string
		path Path
		a    Access
	}{
		{"workspace-read", Path{"/home/alice/project/internal/server/handler.go", "/home/alice/project/internal/server/handler.go"}, Read},
		{"denied-secret", Path{"/home/alice/.ssh/id_rsa", "/home/alice/.ssh/id_rsa"}, Read},
		{"symlinked-secret", Path{"/home/alice/project/key", "/home/alice/.ssh/id_rsa"}, Read},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.CheckPath(bc.path, bc.a, env)
			}
		})
	}
}
