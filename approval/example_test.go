package approval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// A program that embeds toolguard asks its own user through a Callback,
// remembers a session approval, and lets the grant answer the next ask.
// The grant is exactly what the user approved: the same command, unless
// the user chose one of the offered prefixes.
func Example() {
	dir, _ := os.MkdirTemp("", "approval")
	defer os.RemoveAll(dir)
	store := approval.NewGrantStore(dir, filepath.Join(dir, "policy.toml"))
	ctx := context.Background()

	c := call.Call{Kind: call.Shell, Tool: "Bash", Command: "go test ./... -run TestA", Who: call.Who{Session: "s1"}}
	d := policy.Decision{Verdict: risk.Ask, Tier: risk.Execute, Rule: "mode.supervised", Reason: "runs a command"}
	fmt.Println("prefixes offered:", approval.Prefixes(c.Command))
	ask := approval.Callback(func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		// The user clicked "for this session" and chose the prefix "go test ./...".
		return approval.Answer{Approved: true, Scope: approval.Session, Prefix: "go test ./..."}, nil
	})

	ans, err := approval.Ask(ctx, ask, approval.Request{Call: c, Decision: d}, approval.AskOptions{})
	fmt.Println(ans.Approved, ans.Scope, err)
	g, _, _ := store.Record(ctx, approval.Request{Call: c, Decision: d}, ans, time.Now())
	fmt.Println("remembered", g.Pattern())

	grants, _ := store.Grants(ctx, "s1")
	next := c
	next.Command = "go test ./... -run TestX"
	fmt.Println(approval.ApplyGrants(d, next, grants).Rule)
	chained := c
	chained.Command = "go test ./... && git push"
	fmt.Println(approval.ApplyGrants(d, chained, grants).Verdict)
	// Output:
	// prefixes offered: [go test ./... -run go test ./... go test]
	// true session <nil>
	// remembered Bash(go test ./...:*)
	// grant:Bash(go test ./...:*)
	// ask
}

func ExampleNone() {
	ans, err := approval.Ask(context.Background(), approval.None{}, approval.Request{}, approval.AskOptions{})
	fmt.Println(ans.Approved, err)
	// Output:
	// false no approver configured
}

func ExampleParseGrantPattern() {
	g, err := approval.ParseGrantPattern("Bash(npm test:*)")
	fmt.Printf("%q %q %v\n", g.Tool, g.CommandPrefix, err)
	g, err = approval.ParseGrantPattern("Bash(npm test)")
	fmt.Printf("%q %q %v\n", g.Tool, g.Command, err)
	// Output:
	// "Bash" "npm test" <nil>
	// "Bash" "npm test" <nil>
}
