package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// checkMarkerScan compares the scan of code with containsAny and
// firstMarker over strings.ToLower(code) for every list, and forkLoopIn
// with forkLoop.
func checkMarkerScan(t *testing.T, code string) {
	t.Helper()
	h := codeMarkers().scan(code)
	low := strings.ToLower(code)
	for l, list := range codeMarkerLists() {
		if got, want := h.first(markerList(l)), firstMarker(low, list); got != want {
			t.Fatalf("scan(%q).first(list %d) = %q, firstMarker = %q", code, l, got, want)
		}
		if got, want := h.has(markerList(l)), containsAny(low, list); got != want {
			t.Fatalf("scan(%q).has(list %d) = %v, containsAny = %v", code, l, got, want)
		}
	}
	if got, want := forkLoopIn(&h), forkLoop(code); got != want {
		t.Fatalf("forkLoopIn(scan(%q)) = %v, forkLoop = %v", code, got, want)
	}
}

// TestMarkerScan compares the one-pass scan with the list-at-a-time checks
// on table cases and on texts generated from pieces of every marker, in
// random case, with bytes between them that lower-case to ASCII (the
// Kelvin sign), change length when lower-cased (İ) or are not UTF-8.
func TestMarkerScan(t *testing.T) {
	cases := []string{"", "f", "`", "x`", "FORK WHILE", "os.RemoVe('/x')", "import socket; os.system('/bin/sh')",
		"\u212aEY", "for(;;", "urllib\u212a", "\xffexec(", "İexec(", "requests.get(u); eval(r.text)", "ROT13 b64DECODE"}
	var pieces []string
	for _, list := range codeMarkerLists() {
		for _, m := range list {
			pieces = append(pieces, m, m[:len(m)/2], m[len(m)/2:])
		}
	}
	pieces = append(pieces, " ", "\n", "\u212a", "İ", "\xff", "é", "(", "'", `"`)
	rng := rand.New(rand.NewPCG(24, 26))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(3) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		cases = append(cases, b.String())
	}
	for _, code := range cases {
		checkMarkerScan(t, code)
	}
}

// TestMarkerTableLists: every list keeps its markers, in order, so first
// answers what firstMarker answers.
func TestMarkerTableLists(t *testing.T) {
	tb := codeMarkers()
	for l, list := range codeMarkerLists() {
		if len(tb.lists[l]) != len(list) {
			t.Fatalf("list %d: %d markers in the table, %d in the list", l, len(tb.lists[l]), len(list))
		}
		for i, id := range tb.lists[l] {
			if tb.pats[id] != list[i] {
				t.Errorf("list %d marker %d = %q, want %q", l, i, tb.pats[id], list[i])
			}
		}
	}
}

// FuzzMarkerScan compares the scan with the list-at-a-time checks on any
// text.
func FuzzMarkerScan(f *testing.F) {
	for _, s := range []string{"os.fork() while True", "import urllib; exec(x)", "base64.b64decode('cm0gLXJmIH4=')",
		"\u212aILL", "SHUTIL.RMTREE(os.path.expanduser('~'))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		checkMarkerScan(t, code)
	})
}
