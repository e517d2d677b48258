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

// A log rotated by size and by age: rotated files are compressed, and
// Query reads them back with the current file, oldest first by time.
func ExampleWriterOptions() {
	dir, _ := os.MkdirTemp("", "audit")
	defer os.RemoveAll(dir)
	w := audit.NewWriter(filepath.Join(dir, audit.FileName), audit.WriterOptions{
		MaxSize: 1 << 20, RotateEvery: time.Hour, Keep: 48, MaxAge: 7 * 24 * time.Hour})
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	for i, rule := range []string{"first", "second", "third"} {
		r := audit.Record{Time: at.Add(time.Duration(i) * 45 * time.Minute), Tool: "Bash", Verdict: risk.Allow, Rule: rule}
		if err := w.Write(context.Background(), r); err != nil {
			fmt.Println(err)
		}
	}
	w.Close() // waits for the compression of the rotated file

	rotated, _ := filepath.Glob(filepath.Join(dir, audit.FileName+".*.gz"))
	fmt.Println(len(rotated), "rotated file, compressed")
	recs, _ := audit.Query(w.Path(), audit.Filter{})
	for _, r := range recs {
		fmt.Println(r.Time.Format(time.TimeOnly), r.Rule)
	}
	// Output:
	// 1 rotated file, compressed
	// 09:00:00 first
	// 09:45:00 second
	// 10:30:00 third
}
