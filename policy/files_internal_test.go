package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// readerFixture lays a home directory with a workspace and returns a
// disk reader for a call in that workspace, on a budget of limit units.
func readerFixture(t *testing.T, limit int) (*diskFiles, string) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home", "u")
	ws := filepath.Join(home, "project")
	elf := "\x7fELF\x02\x01\x01\x00" + strings.Repeat("\x00", MaxFileBytes)
	for name, content := range map[string]string{
		"project/run.sh":                "#!/bin/sh\necho hi\n",
		"project/empty.sh":              "",
		"project/big.sh":                strings.Repeat("echo 0123456789abcdef\n", MaxFileBytes/21+1),
		"project/limit.sh":              strings.Repeat("#", MaxFileBytes),
		"project/nul.sh":                "echo a\x00b\n",
		"project/latin1.sh":             "echo caf\xe9\n",
		"project/late-nul.sh":           strings.Repeat("a", 2*sniffBytes) + "\x00",
		"project/utf8-at-sniff.sh":      strings.Repeat("a", sniffBytes-1) + "é\n",
		"project/bin/app":               elf,
		"project/dir/keep":              "",
		".ssh/id_rsa":                   "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		".config/toolguard/hook.sh":     "echo tg\n",
		"project/.claude/settings.json": "{}\n",
		"project/.env":                  "TOKEN=x\n",
		"project/scripts/real.py":       "print('hi')\n",
		"elsewhere/tool.sh":             "echo elsewhere\n",
	} {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"project/link.py":     "scripts/real.py",
		"project/key.sh":      filepath.Join(home, ".ssh/id_rsa"),
		"project/dangling.sh": "nowhere.sh",
	} {
		if err := os.Symlink(target, filepath.Join(home, link)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Compile(&Config{}, Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return &diskFiles{p: p, budget: shell.NewBudget(limit), env: paths.Env{Cwd: ws, Workspace: ws}}, home
}

func TestDiskFilesRead(t *testing.T) {
	d, home := readerFixture(t, workLimit)
	ws := home + "/project"
	for _, tc := range []struct {
		path string
		text string
		err  error // the error Read's wraps; nil for text
	}{
		{ws + "/run.sh", "#!/bin/sh\necho hi\n", nil},
		{ws + "/empty.sh", "", nil},
		{ws + "/limit.sh", strings.Repeat("#", MaxFileBytes), nil},
		{ws + "/utf8-at-sniff.sh", strings.Repeat("a", sniffBytes-1) + "é\n", nil},
		{ws + "/link.py", "print('hi')\n", nil}, // a link is followed to its file
		{home + "/elsewhere/tool.sh", "echo elsewhere\n", nil},
		{ws + "/missing.sh", "", analysis.ErrNotExist},
		{ws + "/dangling.sh", "", analysis.ErrNotExist},
		{ws + "/dir", "", analysis.ErrNotExist},
		{ws + "/big.sh", "", analysis.ErrTooLarge},
		{ws + "/nul.sh", "", analysis.ErrNotText},
		{ws + "/latin1.sh", "", analysis.ErrNotText},
		{ws + "/late-nul.sh", "", analysis.ErrNotText},
		{ws + "/bin/app", "", analysis.ErrNotText}, // a compiled program, larger than the limit: not text
		{home + "/.ssh/id_rsa", "", analysis.ErrUnreadable},
		{ws + "/key.sh", "", analysis.ErrUnreadable}, // a link to a denied file
		{ws + "/.env", "", analysis.ErrUnreadable},
		{home + "/.config/toolguard/hook.sh", "echo tg\n", nil}, // protected from writes, not reads
	} {
		text, err := d.Read(tc.path)
		if text != tc.text {
			t.Errorf("Read(%s) = %q…, want %q…", tc.path, analysis.Shorten(text), analysis.Shorten(tc.text))
		}
		if tc.err == nil && err != nil || tc.err != nil && !errors.Is(err, tc.err) {
			t.Errorf("Read(%s): error %v, want %v", tc.path, err, tc.err)
		}
	}
}

// TestDiskFilesBudget holds reads to the call's work budget: a file the
// budget cannot pay for is too large to check, and is not remembered as
// such for when the budget could.
func TestDiskFilesBudget(t *testing.T) {
	d, home := readerFixture(t, pathCost+fileReadCost(MaxFileBytes)-1)
	_, err := d.Read(home + "/project/limit.sh")
	if !errors.Is(err, analysis.ErrTooLarge) {
		t.Fatalf("a file over the budget: %v, want ErrTooLarge", err)
	}
	if _, ok := d.memo[home+"/project/limit.sh"]; ok {
		t.Error("a file not read for want of budget was remembered")
	}
	d, home = readerFixture(t, workLimit)
	if _, err := d.Read(home + "/project/run.sh"); err != nil {
		t.Fatal(err)
	}
	used := d.budget.Used()
	if want := pathCost + fileReadCost(len("#!/bin/sh\necho hi\n")); used != want {
		t.Errorf("reading a small file cost %d units, want %d", used, want)
	}
	if _, err := d.Read(home + "/project/run.sh"); err != nil || d.budget.Used() != used+memoCost {
		t.Errorf("reading it again: %v, cost %d units, want %d", err, d.budget.Used()-used, memoCost)
	}
}

// TestDiskFilesPure checks that reading leaves the files as they were and
// that one policy serves concurrent calls, each with its own reader.
func TestDiskFilesPure(t *testing.T) {
	d, home := readerFixture(t, workLimit)
	p := home + "/project/run.sh"
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	texts := make([]string, 8)
	for i := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &diskFiles{p: d.p, budget: shell.NewBudget(workLimit), env: d.env}
			texts[i], _ = r.Read(p)
		}()
	}
	wg.Wait()
	for i, text := range texts {
		if text != "#!/bin/sh\necho hi\n" {
			t.Errorf("reader %d: %q", i, text)
		}
	}
	after, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{before.Size(), before.Mode(), before.ModTime()}, []any{after.Size(), after.Mode(), after.ModTime()}); diff != "" {
		t.Errorf("reading changed the file (-before +after):\n%s", diff)
	}
}

func TestIsText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		more bool
		want bool
	}{
		{"echo hi\n", false, true},
		{"", false, true},
		{"a\x00b", false, false},
		{"caf\xe9", false, false},
		{"café", false, true},
		{"caf\xc3", false, false}, // cut short at the end of the file
		{"caf\xc3", true, true},   // cut short at the end of what was read so far
		{"caf\xe2\x82", true, true},
		{"caf\x82\x82\x82\x82\x82", true, false},
	} {
		if got := isText([]byte(tc.in), tc.more); got != tc.want {
			t.Errorf("isText(%q, %v) = %v, want %v", tc.in, tc.more, got, tc.want)
		}
	}
}

// FuzzIsText checks isText against the standard library: a whole text is
// text exactly when it is valid UTF-8 without NUL bytes, and a valid text
// cut anywhere is still text when more is said to follow.
func FuzzIsText(f *testing.F) {
	for _, s := range []string{"echo hi", "café", "a\x00", "\xff", "日本語"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		want := utf8.ValidString(s) && !strings.ContainsRune(s, 0)
		if got := isText([]byte(s), false); got != want {
			t.Fatalf("isText(%q) = %v, want %v", s, got, want)
		}
		if want && len(s) > 0 {
			cut = (cut%len(s) + len(s)) % len(s)
			if !isText([]byte(s[:cut]), true) {
				t.Fatalf("isText(%q cut at %d, more) = false", s, cut)
			}
		}
	})
}

// TestDiskFilesListOnce: a directory listed again in the same call is
// answered from the first listing (a file made between the two is not in
// the second), each answer a copy of its own, and a listing the work
// budget could not pay for is not remembered.
func TestDiskFilesListOnce(t *testing.T) {
	d, home := readerFixture(t, workLimit)
	dir := home + "/project/scripts"
	first, err := d.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "later.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	first[0] = "changed by a caller"
	second, err := d.List(dir)
	if diff := cmp.Diff([]string{"real.py"}, second); diff != "" || err != nil {
		t.Errorf("second List(%s) (-want +got):\n%s (err %v)", dir, diff, err)
	}
	if fresh, _ := (&diskFiles{p: d.p, budget: shell.NewBudget(workLimit), env: d.env}).List(dir); len(fresh) != 2 {
		t.Errorf("a new call's List(%s) = %q, want both files", dir, fresh)
	}
	poor := &diskFiles{p: d.p, budget: shell.NewBudget(pathCost - 1), env: d.env}
	if _, err := poor.List(dir); !errors.Is(err, errWorkLimit) || len(poor.lists) != 0 {
		t.Errorf("List with no budget: err %v, remembered %d listings; want the work limit, none", err, len(poor.lists))
	}
}
