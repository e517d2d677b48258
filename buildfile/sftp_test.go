package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSFTPBatch: a batch file's lines as the shell commands that do the
// same to this machine, in one step; no batch, no step.
func TestSFTPBatch(t *testing.T) {
	batch := "# upload the build\nlcd dist\n-put app.tar.gz releases/\nput ~/.kube/config\nget logs/app.log /tmp/app.log\n" +
		"!rm -rf build\nrm releases/old.tar.gz\nls\nbye\n"
	fs := fakeFiles{"/w/up.batch": batch}
	for _, tc := range []struct {
		args []string
		want Plan
	}{
		{[]string{"-b", "up.batch", "deploy@files.example.com"}, Plan{Runner: "sftp", Read: []string{"/w/up.batch"}, Size: len(batch),
			Steps: []Step{{File: "/w/up.batch", Lang: Shell, Dir: w, Text: "cd dist\n" +
				"scp -r -- app.tar.gz deploy@files.example.com:releases/\n" +
				"scp -r -- ~/.kube/config deploy@files.example.com:\n" +
				"scp -r -- deploy@files.example.com:logs/app.log /tmp/app.log\n" +
				"rm -rf build\n" +
				"ssh deploy@files.example.com 'rm releases/old.tar.gz'\n"}}}},
		{[]string{"-P", "2222", "-bup.batch", "-o", "BatchMode=yes", "h:incoming"}, Plan{Runner: "sftp", Read: []string{"/w/up.batch"}, Size: len(batch),
			Steps: []Step{{File: "/w/up.batch", Lang: Shell, Dir: w, Text: "cd dist\n" +
				"scp -r -- app.tar.gz h:releases/\n" +
				"scp -r -- ~/.kube/config h:\n" +
				"scp -r -- h:logs/app.log /tmp/app.log\n" +
				"rm -rf build\n" +
				"ssh h 'rm releases/old.tar.gz'\n"}}}},
		{[]string{"deploy@files.example.com"}, Plan{}},
		{[]string{"-b", "-", "h"}, Plan{Problems: []Problem{{File: "-", Reason: "sftp reads its batch from standard input"}}}},
		{[]string{"-b", "missing.batch", "h"}, Plan{Runner: "sftp"}},
	} {
		got := Resolve(Invocation{Name: "sftp", Args: tc.args, Dir: w}, fs)
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("sftp %q (-want +got):\n%s", tc.args, d)
		}
	}
}

// FuzzSFTPBatch: whatever the batch, the plan is bounded and from the
// file read.
func FuzzSFTPBatch(f *testing.F) {
	f.Add("put a b\nget 'x y'\n!id\nlcd ..\nrm -r z\n")
	f.Add("@-mput *.log\nrename a b\nchmod 600 k\n")
	f.Fuzz(func(t *testing.T, text string) {
		fuzzFile(t, "b.batch", "sftp -b b.batch h", text)
	})
}
