package analysis_test

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// writeTarGz writes a gzip'd tar of members (name → content; a content
// starting with "->" is a symbolic link to the rest).
func writeTarGz(t *testing.T, file string, members [][2]string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, m := range members {
		h := &tar.Header{Name: m[0], Mode: 0o644, Size: int64(len(m[1])), Typeflag: tar.TypeReg}
		if target, ok := strings.CutPrefix(m[1], "->"); ok {
			h = &tar.Header{Name: m[0], Mode: 0o777, Typeflag: tar.TypeSymlink, Linkname: target}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(m[1])); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []interface{ Close() error }{tw, gz, f} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func writeZip(t *testing.T, file string, names ...string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestArchiveMembers: an extraction writes every member of its archive,
// under -C/--directory/-d, with --strip-components, and through the links
// the archive makes (issue 30).
func TestArchiveMembers(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "project")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTarGz(t, filepath.Join(work, "evil.tgz"), [][2]string{
		{"pkg/.claude/settings.local.json", `{"disableAllHooks": true}`},
		{"pkg/x", "->/home/ada/.gemini"},
		{"pkg/x/settings.json", "{}"},
	})
	writeZip(t, filepath.Join(work, "evil.zip"), ".gemini/settings.json", "README.md")
	if err := os.WriteFile(filepath.Join(work, "notes.tar.xz"), []byte("\xfd7zXZ\x00 not read here"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := rules.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd      string
		want     []string
		findings []string
	}{
		{"tar xzf evil.tgz", []string{
			"path file write .",
			"path tree write .",
			"path file write pkg/.claude/settings.local.json",
			"path file write /home/ada/.gemini/settings.json",
		}, nil},
		{"tar -xzf evil.tgz -C out --strip-components=1", []string{
			"path file write out",
			"path tree write out",
			"path file write out/.claude/settings.local.json",
			"path file write /home/ada/.gemini/settings.json",
		}, nil},
		{"tar --extract --file=evil.tgz --directory=o", []string{
			"path file write o",
			"path tree write o",
			"path file write o/pkg/.claude/settings.local.json",
			"path file write /home/ada/.gemini/settings.json",
		}, nil},
		{"tar xfC evil.tgz d", []string{
			"path file write d/pkg/.claude/settings.local.json",
			"path file write /home/ada/.gemini/settings.json",
		}, nil},
		{"tar tzf evil.tgz", nil, nil},
		{"unzip -o evil.zip -d sub", []string{
			"path file write sub",
			"path tree write sub",
			"path file write sub/.gemini/settings.json",
		}, nil},
		{"unzip -l evil.zip", nil, nil},
		{"tar xJf notes.tar.xz", []string{"path file write .", "path tree write ."}, []string{"shell.unverifiable"}},
		{"tar xzf missing.tgz", []string{"path file write .", "path tree write ."}, nil},
	} {
		rec := &recorder{}
		var found analysis.Findings
		a := analysis.New(analysis.Context{Home: "/home/ada", Cwd: work, Workspace: work, Rules: set,
			Budget: shell.NewBudget(0), Findings: &found, Trees: analysis.DiskTrees{}}, rec)
		a.Script(a.Parse(c.cmd))
		var got []string
		for _, l := range rec.lines {
			if strings.HasPrefix(l, "path ") && strings.Contains(l, " write ") {
				got = append(got, l)
			}
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s: writes (-want +got):\n%s", c.cmd, d)
		}
		if d := cmp.Diff(c.findings, rulesOf(found)); d != "" {
			t.Errorf("%s: findings (-want +got):\n%s", c.cmd, d)
		}
	}
}

// FuzzArchiveMembers lists arbitrary bytes as an archive: no panic, never
// more members than asked for.
func FuzzArchiveMembers(f *testing.F) {
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0})
	f.Add([]byte("BZh91AY&SY"))
	f.Add(append(make([]byte, 257), []byte("ustar\x0000")...))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(dir, "a")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names, _, _ := analysis.DiskTrees{}.Members(file, 8)
		if len(names) > 8 {
			t.Fatalf("%d members, asked for 8", len(names))
		}
	})
}
