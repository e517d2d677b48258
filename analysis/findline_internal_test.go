package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// findLineByLists is findLine as the lists spell it: each list in turn,
// each line lower-cased with a space after it, asked with containsAny.
func findLineByLists(text string, f *risk.Finding) (int, string, bool) {
	if s := strings.TrimSuffix(f.Subject, "…"); len(s) >= 2 {
		if off := strings.Index(text, s); off >= 0 {
			n, line := lineAt(text, off)
			return n, line, true
		}
	}
	markers := [][]string{shellEscapes, inlineNetworkMarkers, inlineDeleteMarkers, inlineWriteMarkers}
	if f.Category == risk.CatFSDelete {
		markers = [][]string{inlineDeleteMarkers, shellEscapes}
	}
	lines := strings.Split(text, "\n")
	for _, ms := range markers {
		for i, l := range lines {
			low := strings.ToLower(strings.TrimSpace(l))
			if low != "" && !strings.HasPrefix(low, "#") && !strings.HasPrefix(low, "//") && containsAny(low+" ", ms) {
				return i + 1, strings.TrimSpace(l), true
			}
		}
	}
	return 0, "", false
}

type foundLine struct {
	N    int
	Line string
	OK   bool
}

func TestFindLine(t *testing.T) {
	text := "# curl in a comment\nx = 1\nimport shutil\nshutil.rmtree(p)\nos.system('ls')\nUNLINK\t\n"
	for _, tc := range []struct {
		f    risk.Finding
		want foundLine
	}{
		{risk.Finding{Subject: "x = 1"}, foundLine{2, "x = 1", true}},
		{risk.Finding{Subject: "nowhere"}, foundLine{5, "os.system('ls')", true}}, // shellEscapes first
		{risk.Finding{Category: risk.CatFSDelete}, foundLine{4, "shutil.rmtree(p)", true}},
		{risk.Finding{Subject: "x"}, foundLine{5, "os.system('ls')", true}}, // a subject of one byte is not looked for
	} {
		var ls fileLines
		n, line, ok := findLine(text, &ls, &tc.f)
		if diff := cmp.Diff(tc.want, foundLine{n, line, ok}); diff != "" {
			t.Errorf("findLine(%+v) (-want +got):\n%s", tc.f, diff)
		}
	}
	var ls fileLines
	if n, line, ok := findLine("unlink", &ls, &risk.Finding{}); n != 1 || line != "unlink" || !ok {
		t.Errorf(`findLine("unlink") = %d, %q, %v: "unlink " ends the line`, n, line, ok)
	}
}

// TestFindLineByLists compares findLine with the lists asked one at a
// time, on texts of lines pieced from the markers in random case, with
// comments, blank lines and bytes that lower-case to ASCII or are not
// UTF-8, for several findings against the same lines.
func TestFindLineByLists(t *testing.T) {
	var pieces []string
	for _, list := range [][]string{shellEscapes, inlineNetworkMarkers, inlineDeleteMarkers, inlineWriteMarkers} {
		for _, m := range list {
			pieces = append(pieces, m, m[:len(m)/2])
		}
	}
	pieces = append(pieces, " ", "\n", "\n#", "\n//", "\n\t", "\u212a", "İ", "\xff", "x")
	rng := rand.New(rand.NewPCG(15, 26))
	findings := []risk.Finding{{}, {Category: risk.CatFSDelete}, {Subject: "rm -rf"}, {Subject: "x…"}}
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(10) {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(3) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		text := b.String()
		var ls fileLines
		for _, f := range findings {
			n, line, ok := findLine(text, &ls, &f)
			wn, wline, wok := findLineByLists(text, &f)
			if n != wn || line != wline || ok != wok {
				t.Fatalf("findLine(%q, %+v) = %d %q %v, by the lists %d %q %v", text, f, n, line, ok, wn, wline, wok)
			}
		}
	}
}
