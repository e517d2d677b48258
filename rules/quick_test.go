package rules

import (
	"sort"
	"testing"

	"github.com/toolguard/toolguard/risk"
)

// judged is the combined classification of every command in a test text.
type judged struct {
	IDs   []string
	Tier  risk.Tier
	Blast risk.Blast
}

func judge(t testing.TB, s *Set, text string) judged {
	t.Helper()
	var j judged
	seen := map[string]bool{}
	for _, c := range splitCommand(text) {
		r := s.Classify(c)
		j.Tier = j.Tier.Worse(r.Tier)
		for _, f := range r.Findings {
			j.Blast = j.Blast.Worse(f.Blast)
			if !seen[f.Rule] {
				seen[f.Rule] = true
				j.IDs = append(j.IDs, f.Rule)
			}
		}
	}
	sort.Strings(j.IDs)
	return j
}

func TestQuick(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"rm -rf /", "rm -fr ~", "rm -r -f .", "rm -rf node_modules", "rm -rf /tmp/x", "rm -rf $X/", "git push -f", "git push origin +main", "git push --force-with-lease", "git status", "git -C /tmp reset --hard", "git checkout -b x", "git checkout -- .", "git commit -m 'rm -rf /'", "find . -name '*.log' -delete", "ls -la", "echo x > ~/.bashrc", "git -c core.hooksPath=/tmp/h commit -m x", "chmod -R 777 /", "chmod +x a.sh", "sed -i s/a/b/ f", "sed -n 1p f"} {
		t.Logf("%-45s %+v", c, judge(t, s, c))
	}
}
