package audit_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func Example() {
	dir, _ := os.MkdirTemp("", "audit")
	defer os.RemoveAll(dir)
	w := audit.NewWriter(filepath.Join(dir, audit.FileName), audit.WriterOptions{})

	c := call.Call{Kind: call.Shell, Tool: "Bash", Command: "psql --password hunter2 -c 'drop table t'"}
	d := policy.Decision{Verdict: risk.Deny, Tier: risk.Destructive, Rule: "db.drop", Reason: "drops a table"}
	rec := audit.NewRecord(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), c, d, 2*time.Millisecond)
	if err := w.Write(context.Background(), rec); err != nil {
		fmt.Println(err)
	}

	recs, _ := audit.Query(w.Path(), audit.Filter{Verdicts: []risk.Verdict{risk.Deny}})
	for _, r := range recs {
		fmt.Println(r.Time.Format(time.TimeOnly), r.Verdict, r.Rule, r.Args)
	}
	// Output:
	// 09:00:00 deny db.drop psql --password *** -c 'drop table t'
}

func ExampleRedactString() {
	fmt.Println(audit.RedactString("git clone https://me:hunter2@example.com/r.git && export GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"))
	// Output:
	// git clone https://me:***@example.com/r.git && export GITHUB_TOKEN=***
}
