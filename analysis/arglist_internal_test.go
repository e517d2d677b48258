package analysis

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkArgListMatches fails when argListMatches finds other matches than
// the expression run over the whole text, or argListIndexes other
// indexes.
func checkArgListMatches(t *testing.T, code string) {
	t.Helper()
	want := argListRE.Get().FindAllStringSubmatch(code, -1)
	if diff := cmp.Diff(want, argListMatches(code)); diff != "" {
		t.Errorf("argListMatches(%q) differs from argListRE (-want +got):\n%s", code, diff)
	}
	wantAt := argListRE.Get().FindAllStringSubmatchIndex(code, -1)
	if diff := cmp.Diff(wantAt, slices.Collect(argListIndexes(code))); diff != "" {
		t.Errorf("argListIndexes(%q) differs from argListRE (-want +got):\n%s", code, diff)
	}
}

func TestArgListMatches(t *testing.T) {
	for _, tc := range []struct {
		code string
		want [][]string
	}{
		{"", nil},
		{`commandLine 'rm', '-rf', System.getProperty('user.home')`,
			[][]string{{`commandLine 'rm', '-rf', System.getProperty('user.home')`, `'rm', '-rf', System.getProperty('user.home')`}}},
		{`subprocess.run(["curl", url])`, nil}, // url is no element
		{`subprocess.run(["curl", "-s"]); rerun("a", "b"); spawn('sh', '-c')`,
			[][]string{{`run(["curl", "-s"`, `"curl", "-s"`}, {`spawn('sh', '-c'`, `'sh', '-c'`}}}, // rerun: no word boundary
		{`_exec("a", "b")`, nil},
	} {
		if diff := cmp.Diff(tc.want, argListMatches(tc.code)); diff != "" {
			t.Errorf("argListMatches(%q) (-want +got):\n%s", tc.code, diff)
		}
		checkArgListMatches(t, tc.code)
	}
}

// TestArgListMatchesAsExpression compares argListMatches and
// argListIndexes with the expression on texts pieced from its words (in
// any case, after word bytes or not), its elements and separators, and
// letters the regexp package folds with ASCII ones.
func TestArgListMatchesAsExpression(t *testing.T) {
	pieces := []string{"commandLine", "ProcessBuilder", "arrayOf", "listof", "args", "exec", "EXEC", "run", "Run", "call",
		"check_call", "check_output", "popen", "spawn", "spawnSync", "execFile", "execv", "execvp", "command",
		"x", "_", "1", ".", "(", "[", " ", "\t", "\n", ",", `"a"`, `'b c'`, `"`, "'", "System.getProperty('user.home')",
		"os.getenv(\"HOME\")", "System.env.HOME", "ſpawn", "\u212A", "é"}
	forPiecedTexts(t, pieces, 14, 15, 26, 100000, func(code string) { checkArgListMatches(t, code) })
}

func FuzzArgListMatches(f *testing.F) {
	for _, s := range []string{`new ProcessBuilder("sh", "-c", cmd)`, `execFileSync('rm', ['-rf', os.homedir()])`,
		`listOf("a", "b") + arrayOf('c', 'd')`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) { checkArgListMatches(t, code) })
}
