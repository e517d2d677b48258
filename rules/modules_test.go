package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// TestModuleCommands: python -m MODULE is judged as MODULE's program only
// when the module is a program of its own, python's part cannot change
// which code runs, and the program's judgement is a proven read; the
// paths it reads are kept.
func TestModuleCommands(t *testing.T) {
	s := builtin(t)
	tests := []struct {
		cmd    string
		tier   risk.Tier
		proven bool
		paths  []string // access:path of the result
	}{
		{"python -m pip list", risk.Read, true, nil},
		{"python3 -m pip show -f requests", risk.Read, true, nil},
		{"python3 -I -B -m pip freeze --all", risk.Read, true, nil},
		{"python3 -W ignore -m pip list", risk.Read, true, nil},
		{"python3 -m json.tool data.json", risk.Read, true, []string{"read:data.json"}},
		{"python3 -m json.tool --sort-keys in.json", risk.Read, true, []string{"read:in.json"}},
		{"python3 -m json.tool in.json out.json", risk.Execute, false, nil},          // writes: only reads are the module's
		{"python -m pip install requests", risk.Execute, false, nil},                 // not a read: python running pip
		{"python -m pip list --outdated", risk.Read, true, nil},                      // asks the index: a remote read
		{"python -m pip list --outdated --index-url $IDX", risk.Execute, false, nil}, // a word not known: not proven
		{"python -X importtime -m pip list", risk.Execute, false, nil},               // an option not listed
		{"PYTHONPATH=/tmp/m python -m pip list", risk.Execute, false, nil},           // another pip may run
		{"python -m http.server", risk.Execute, false, nil},
		{"python -m pytest", risk.Execute, false, nil},
		{"python -c 'import pip' -m pip list", risk.Execute, false, nil},
	}
	for _, tc := range tests {
		sc, err := shell.Parse(tc.cmd, shell.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := s.Classify(sc.Commands[0])
		var got []string
		for _, p := range r.Paths {
			got = append(got, p.Access+":"+p.Word.Value)
		}
		if r.Tier != tc.tier || r.Proven != tc.proven {
			t.Errorf("%q: tier %v proven %v, want %v %v", tc.cmd, r.Tier, r.Proven, tc.tier, tc.proven)
		}
		if tc.proven {
			if diff := cmp.Diff(tc.paths, got); diff != "" {
				t.Errorf("%q: paths (-want +got):\n%s", tc.cmd, diff)
			}
		}
	}
}
