package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// diskCase is a Bash command decided over files laid in its workspace,
// in each of corpusModes.
type diskCase struct {
	name    string
	command string
	files   []corpusFileSpec
	want    [3]string // supervised, trusted, full
	reason  string    // held by the reason in supervised
}

// runDiskCases decides each case in each of corpusModes, in a home of its
// own holding the case's files, and wants the case's verdicts and reason.
func runDiskCases(t *testing.T, cases []diskCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cc := corpusCase{ID: "x", Tool: "Bash", Command: c.command, Files: c.files}
			home := cc.layFiles(t)
			var got [3]string
			for i, m := range corpusModes {
				p := corpusPolicy(t, m, home)
				cl, err := cc.call(p, home)
				if err != nil {
					t.Fatal(err)
				}
				d := p.Decide(context.Background(), cl)
				got[i] = d.Verdict.String()
				if m == policy.ModeSupervised && !strings.Contains(d.Reason, c.reason) {
					t.Errorf("the reason does not say %q: %s", c.reason, d.Reason)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
		})
	}
}
