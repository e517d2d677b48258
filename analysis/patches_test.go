package analysis_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/analysis"
)

// TestPatchesApplied checks that a command applying a patch has every file
// the patch changes judged as written (deleted, for a file it removes), in
// the directory it applies in with -p's components stripped, named by the
// patch's line; that a check, a listing or a dry run judges nothing; and
// that a patch that cannot be read or holds no file is unverifiable.
func TestPatchesApplied(t *testing.T) {
	const (
		hook = "diff --git a/.claude/settings.json b/.claude/settings.json\n" +
			"--- a/.claude/settings.json\n" +
			"+++ b/.claude/settings.json\n" +
			"@@ -1 +1 @@\n" +
			"-{\"hooks\": {\"PreToolUse\": []}}\n" +
			"+{}\n"
		src = "--- a/src/app.py\n" +
			"+++ b/src/app.py\n" +
			"@@ -1 +1 @@\n" +
			"-TIMEOUT = 10\n" +
			"+TIMEOUT = 30\n" +
			"diff --git a/old.py b/old.py\n" +
			"deleted file mode 100644\n" +
			"--- a/old.py\n" +
			"+++ /dev/null\n" +
			"@@ -1 +0,0 @@\n" +
			"-x = 1\n"
	)
	pf := ws + "/fix.patch"
	for _, c := range []struct {
		name     string
		command  string
		files    analysis.Files
		paths    []string // the "path …" lines of files written or deleted
		findings []string
		reason   string // a text every finding's reason holds
	}{
		{name: "git apply: the patch's file is written", command: "git apply fix.patch", files: files{pf: hook},
			paths: []string{"path file read fix.patch", "path file write .claude/settings.json"}},
		{name: "writes and deletes, -p0 keeps the prefix", command: "git apply -p0 fix.patch", files: files{pf: src},
			paths: []string{"path file read fix.patch", "path file write b/src/app.py", "path file delete a/old.py removes"}},
		{name: "git -C and --directory", command: "git -C sub apply --directory=lib fix.patch", files: files{ws + "/sub/fix.patch": hook},
			paths: []string{"path file write sub/lib", "path tree write sub/lib", "path file read sub/fix.patch",
				"path file write sub/lib/.claude/settings.json"}},
		{name: "git am of a mailbox", command: "git am --3way fix.patch", files: files{pf: hook},
			paths: []string{"path file read fix.patch", "path file write .claude/settings.json"}},
		{name: "patch -p1 -i", command: "patch -p1 -i fix.patch", files: files{pf: src},
			paths: []string{"path file read fix.patch", "path file write src/app.py", "path file delete old.py removes"}},
		{name: "patch -p1 < file", command: "patch -p1 < fix.patch", files: files{pf: hook},
			paths: []string{"path file read fix.patch", "path file write .claude/settings.json"}},
		{name: "patch without -p: the base names, in -d", command: "patch -d web -i fix.patch", files: files{ws + "/web/fix.patch": src},
			paths: []string{"path file read fix.patch", "path file write web/app.py", "path file delete web/old.py removes"}},
		{name: "git apply --check writes nothing", command: "git apply --check fix.patch", files: files{pf: hook},
			paths: []string{"path file read fix.patch"}},
		{name: "git apply --stat writes nothing", command: "git apply --stat fix.patch", files: files{pf: hook},
			paths: []string{"path file read fix.patch"}},
		{name: "patch --dry-run writes nothing", command: "patch --dry-run -p1 -i fix.patch", files: files{pf: hook},
			paths: []string{"path file read fix.patch"}},
		{name: "no such patch: nothing more", command: "git apply fix.patch", files: files{},
			paths: []string{"path file read fix.patch"}},
		{name: "an unreadable patch is unverifiable", command: "git apply fix.patch", files: files{pf: analysis.ErrUnreadable},
			paths: []string{"path file read fix.patch"}, findings: []string{"shell.unverifiable"}, reason: "fix.patch"},
		{name: "a patch with no file in it is unverifiable", command: "patch -p1 < fix.patch", files: files{pf: "nothing here\n"},
			paths: []string{"path file read fix.patch"}, findings: []string{"shell.unverifiable"}, reason: "no file to change"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, found, _ := analyse(t, c.command, 0, c.files)
			var got []string
			for _, l := range rec.lines {
				if strings.HasPrefix(l, "path ") {
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(c.paths, got); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.findings, rulesOf(found)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			for _, f := range found {
				if !strings.Contains(f.Reason, c.reason) {
					t.Errorf("%s: the reason does not say %q: %s", f.Rule, c.reason, f.Reason)
				}
			}
		})
	}
}
