package budget_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/risk"
)

func ExampleCounter() {
	dir, _ := os.MkdirTemp("", "budget")
	defer os.RemoveAll(dir)
	c, _ := budget.NewCounter(dir, budget.Limits{MaxActionsPerHour: 2})
	now := time.Date(2026, 11, 21, 9, 42, 13, 0, time.UTC)
	for i := range 3 {
		if !budget.Counts(risk.Write) {
			continue
		}
		_, err := c.Reserve(context.Background(), "alice", now.Add(time.Duration(i)*time.Minute))
		fmt.Println(i+1, err)
	}
	// Output:
	// 1 <nil>
	// 2 <nil>
	// 3 actions budget of 2/hour used by sender "alice"; next slot frees at 10:42:13 UTC
}

func ExampleCheckEscalation() {
	parent := budget.Bounds{Mode: 2, ModeName: "supervised", Roots: []string{"/work"}, WorkspaceOnly: true}
	child := budget.Bounds{Mode: 2, ModeName: "supervised", Roots: []string{"/work/sub"}, ReadOnlyRoots: []string{"/etc"}, WorkspaceOnly: true}
	fmt.Println(budget.CheckEscalation(parent, child))
	// Output:
	// sub-agent policy exceeds its parent (ReadOnlyRootNotInParent): read-only root /etc is not inside a parent root that allows it
}

func ExampleLimiter() {
	l, _ := budget.NewLimiter(budget.SubAgentLimits{MaxDepth: 2})
	release, err := l.Acquire(context.Background(), 0, len("summarise the README"))
	fmt.Println(err)
	release()
	_, err = l.Acquire(context.Background(), 2, 10)
	fmt.Println(err)
	// Output:
	// <nil>
	// sub-agent refused: a sub-agent at depth 2 may not start another (max_depth 2)
}
