package policy_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// A verdict baseline is the committed outcome of every case of a corpus
// in every mode it is decided in, one line per case:
//
//	KEY LABEL VERDICT…
//
// The test that owns the corpus compares what it measures with it: a case
// that moved the wrong way for its label fails, and -update does not record
// it (fix the guard, or relabel the case with a reason); any other change —
// a case that moved the right way, a new case, a removed one — fails until
// it is recorded with -update, so that the committed figures are always the
// measured ones and the next move is measured from them.

// verdictRow is one case's label and outcomes.
type verdictRow struct {
	Key, Label string
	// Relabelled is the case's reason for a label that differs from the
	// one recorded; a label may not change without one.
	Relabelled string
	Verdicts   []string
}

func (r verdictRow) line() string {
	return r.Key + " " + r.Label + " " + strings.Join(r.Verdicts, " ")
}

// verdictRank orders outcomes for a label in mode i: a higher rank is
// further from what the label asks for.
type verdictRank func(label string, mode int, verdict string) int

// adversarialRank ranks the adversarial corpus's outcomes. A call that can
// no longer be normalised is always a move the wrong way.
func adversarialRank(label string, mode int, v string) int {
	order := map[string][]string{
		"allow": {"allow", "ask", "deny", notNormalised},
		"deny":  {"deny", notNormalised, "ask", "allow"},
	}[label]
	if label == "trusted-allow" {
		if mode == 0 && v == "ask" {
			return 0 // supervised may ask; denying ordinary work is worse
		}
		order = []string{"allow", "ask", "deny", notNormalised}
	}
	if label == "not-silent" || label == "trusted-not-silent" {
		if (mode == 0 || label == "trusted-not-silent" && mode == 1) && v == "allow" {
			return 2
		}
		if v == notNormalised {
			return 1
		}
		return 0
	}
	for i, o := range order {
		if o == v {
			return i
		}
	}
	return len(order)
}

const verdictHeader = `# The outcome of every case in every mode, as the test that reads this file
# measures it: KEY LABEL VERDICT… (one verdict per mode, in the test's order).
# A case that moves the wrong way for its label fails the test and is never
# recorded; any other change is recorded with -update. Do not edit by hand.
`

// checkVerdictBaseline compares rows with the baseline in file.
func checkVerdictBaseline(t testing.TB, file string, rows []verdictRow, rank verdictRank, update bool) {
	t.Helper()
	old, err := readVerdicts(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("%s: %v", file, err)
	}
	next := map[string]verdictRow{}
	var wrong, changed []string
	for _, r := range rows {
		next[r.Key] = r
		o, ok := old[r.Key]
		switch {
		case !ok:
			changed = append(changed, "new: "+r.line())
		case o.Label != r.Label && r.Relabelled == "":
			wrong = append(wrong, fmt.Sprintf("%s: label %s → %s without a reason (set relabelled in the corpus)", r.Key, o.Label, r.Label))
			next[r.Key] = o
		case o.line() != r.line():
			if moves := wrongMoves(o, r, rank); moves != "" {
				wrong = append(wrong, r.Key+" ["+r.Label+"]: "+moves)
				next[r.Key] = o
				continue
			}
			changed = append(changed, fmt.Sprintf("%s\n      → %s", o.line(), r.line()))
		}
	}
	for k, o := range old {
		if _, ok := next[k]; !ok {
			changed = append(changed, "removed: "+o.line())
		}
	}
	sort.Strings(wrong)
	sort.Strings(changed)
	for _, w := range wrong {
		t.Errorf("%s: moved the wrong way: %s", file, w)
	}
	if update {
		if err := writeVerdicts(file, next); err != nil {
			t.Fatal(err)
		}
		if len(changed) > 0 {
			t.Logf("%s: recorded %d changes:\n    %s", file, len(changed), strings.Join(changed, "\n    "))
		}
		return
	}
	if len(changed) > 0 {
		t.Errorf("%s: %d cases differ from the baseline (none for the worse); record them with -update and commit the file:\n    %s",
			file, len(changed), strings.Join(changed, "\n    "))
	}
}

// wrongMoves describes the modes in which r moved the wrong way from o,
// or is "".
func wrongMoves(o, r verdictRow, rank verdictRank) string {
	var out []string
	for i := range min(len(o.Verdicts), len(r.Verdicts)) {
		if rank(r.Label, i, r.Verdicts[i]) > rank(r.Label, i, o.Verdicts[i]) {
			out = append(out, fmt.Sprintf("mode %d %s → %s", i+1, o.Verdicts[i], r.Verdicts[i]))
		}
	}
	return strings.Join(out, ", ")
}

func readVerdicts(file string) (map[string]verdictRow, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]verdictRow{}
	for i, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("line %d: %q is not KEY LABEL VERDICT…", i+1, line)
		}
		out[f[0]] = verdictRow{Key: f[0], Label: f[1], Verdicts: f[2:]}
	}
	return out, nil
}

func writeVerdicts(file string, rows map[string]verdictRow) error {
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(verdictHeader)
	for _, k := range keys {
		b.WriteString(rows[k].line() + "\n")
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// fakeT collects what checkVerdictBaseline reports.
type fakeT struct {
	testing.TB
	errs []string
}

func (f *fakeT) Helper()             {}
func (f *fakeT) Logf(string, ...any) {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

// wantFailures fails t, for the case named name, unless f collected one
// failure per want, in order, each saying its want.
func (f *fakeT) wantFailures(t *testing.T, name string, want []string) {
	t.Helper()
	if len(f.errs) != len(want) {
		t.Errorf("%s: failures %q, want %q", name, f.errs, want)
	}
	for i := range min(len(f.errs), len(want)) {
		if !strings.Contains(f.errs[i], want[i]) {
			t.Errorf("%s: failure %q, want it to say %q", name, f.errs[i], want[i])
		}
	}
}

func TestVerdictBaseline(t *testing.T) {
	file := t.TempDir() + "/verdicts.txt"
	row := func(key, label, relabelled string, v ...string) verdictRow {
		return verdictRow{Key: key, Label: label, Relabelled: relabelled, Verdicts: v}
	}
	base := []verdictRow{row("a", "deny", "", "deny", "deny", "deny"), row("b", "allow", "", "ask", "allow", "allow")}
	if err := writeVerdicts(file, map[string]verdictRow{"a": base[0], "b": base[1]}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		rows   []verdictRow
		update bool
		want   []string // a part of each failure, in order
		after  string   // the file's lines afterwards, without the header
	}{
		{"same", base, false, nil, "a deny deny deny deny\nb allow ask allow allow\n"},
		{"deny slides to ask, even with -update", []verdictRow{row("a", "deny", "", "ask", "deny", "deny"), base[1]}, true,
			[]string{"moved the wrong way: a [deny]: mode 1 deny → ask"}, "a deny deny deny deny\nb allow ask allow allow\n"},
		{"harmless denied now", []verdictRow{base[0], row("b", "allow", "", "deny", "allow", "allow")}, false,
			[]string{"moved the wrong way: b [allow]: mode 1 ask → deny"}, "a deny deny deny deny\nb allow ask allow allow\n"},
		{"harmless allowed now: recorded only with -update", []verdictRow{base[0], row("b", "allow", "", "allow", "allow", "allow")}, false,
			[]string{"1 cases differ from the baseline (none for the worse)"}, "a deny deny deny deny\nb allow ask allow allow\n"},
		{"relabel without reason", []verdictRow{row("a", "not-silent", "", "ask", "ask", "ask"), base[1]}, true,
			[]string{"label deny → not-silent without a reason"}, "a deny deny deny deny\nb allow ask allow allow\n"},
		{"relabel with reason", []verdictRow{row("a", "not-silent", "was deny: …", "ask", "ask", "ask"), base[1]}, true,
			nil, "a not-silent ask ask ask\nb allow ask allow allow\n"},
		{"not normalised any more", []verdictRow{row("a", "not-silent", "", "ask", notNormalised, "ask"), base[1]}, false,
			[]string{"mode 2 ask → error"}, "a not-silent ask ask ask\nb allow ask allow allow\n"},
		{"new and removed cases", []verdictRow{row("c", "allow", "", "allow", "allow", "allow")}, false,
			[]string{"3 cases differ"}, "a not-silent ask ask ask\nb allow ask allow allow\n"},
	} {
		f := &fakeT{TB: t}
		checkVerdictBaseline(f, file, tc.rows, adversarialRank, tc.update)
		f.wantFailures(t, tc.name, tc.want)
		data, _ := os.ReadFile(file)
		if got := strings.TrimPrefix(string(data), verdictHeader); got != tc.after {
			t.Errorf("%s: file holds\n%s\nwant\n%s", tc.name, got, tc.after)
		}
	}
}
