package analysis

import (
	"testing"
)

// checkSpawnPrefilters fails when a prefilter says "cannot match" on a
// text one of the expressions matches.
func checkSpawnPrefilters(t *testing.T, code string) {
	t.Helper()
	if keyedCommandRE.Get().MatchString(code) && !mayHoldKeyedCommand(code) {
		t.Errorf("mayHoldKeyedCommand(%q) = false, but keyedCommandRE matches", code)
	}
	if bareSpawnRE.Get().MatchString(code) && !mayHoldBareSpawn(code) {
		t.Errorf("mayHoldBareSpawn(%q) = false, but bareSpawnRE matches", code)
	}
}

func TestSpawnPrefilters(t *testing.T) {
	for _, tc := range []struct {
		code         string
		keyed, spawn bool
	}{
		{"", false, false},
		{"import sys\nfile_path = 'django/db/models/base.py'\n", false, false},
		{"run: 'make all'", true, false},
		{"  Run =\n\t\"x\"", true, false},
		{"ExecStartPre=\"/bin/true\"", true, false},
		{"execstartpost = 'x'", true, false},
		{"myrun = 'x'", false, false},
		{"run_x = 'x'", false, false},
		{"cmd:\n'", true, false}, // the quote scan is loose: the expression runs and finds nothing
		{"[exec ls]", false, true},
		{"exec ls", false, true},
		{"x;SYSTEM ls", false, true},
		{"os.system('ls')", false, false},
		{"subprocess.execute ls", false, false},
		{"spawn", false, false},
		{"ſhell: 'x'", true, true},    // U+017F folds with s under (?i): the expression decides
		{"\u212Aeep = 1", true, true}, // any byte outside ASCII
		{"x\vexec ls", false, false},  // \v is not \s
		{"x\fexec\tls", false, true},  // \f is
	} {
		if got := mayHoldKeyedCommand(tc.code); got != tc.keyed {
			t.Errorf("mayHoldKeyedCommand(%q) = %v, want %v", tc.code, got, tc.keyed)
		}
		if got := mayHoldBareSpawn(tc.code); got != tc.spawn {
			t.Errorf("mayHoldBareSpawn(%q) = %v, want %v", tc.code, got, tc.spawn)
		}
		checkSpawnPrefilters(t, tc.code)
	}
}

// TestSpawnPrefiltersNeverMissAMatch builds many texts from the pieces
// the expressions are made of and checks the prefilters against them.
func TestSpawnPrefiltersNeverMissAMatch(t *testing.T) {
	pieces := []string{"shell", "Command", "CMD", "run", "script", "ExecStart", "execstartpre", "post", "execstop",
		"exec", "SYSTEM", "spawn", "x", "_", "9", " ", "\t", "\n", "\f", "\r", "\v", ":", "=", "'", "\"", "`",
		"[", "]", "(", ")", ";", "a b", "ſ", "\u212A", "é"}
	forPiecedTexts(t, pieces, 8, 1, 2, 200000, func(code string) { checkSpawnPrefilters(t, code) })
}

func FuzzSpawnPrefilters(f *testing.F) {
	for _, s := range []string{"run: 'x'", "[exec ls]", "ExecStop = \"y\"", "a;spawn\tz", "ſcript='x'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) { checkSpawnPrefilters(t, code) })
}
