package guard_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
)

func examplePolicy() *policy.Policy {
	p, err := policy.Compile(&policy.Config{}, policy.Options{Home: "/home/ada"})
	if err != nil {
		panic(err)
	}
	return p
}

// Authorize decides a call and asks the approver when the policy says ask.
func ExampleGuard_Authorize() {
	ask := approval.Callback(func(_ context.Context, r approval.Request) (approval.Answer, error) {
		fmt.Println("asked about:", r.Call.Command, "-", r.Decision.Rule)
		return approval.Answer{Approved: true, Scope: approval.Once, By: "callback"}, nil
	})
	g, _ := guard.New(examplePolicy(), guard.WithApprover(ask))
	ctx := context.Background()
	for _, cmd := range []string{"git status", "git push --force origin main", "rm -rf ~"} {
		d, _ := g.Authorize(ctx, call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Workspace: "/home/ada/project"})
		fmt.Println(cmd, "→", d.Verdict)
	}
	// Output:
	// git status → allow
	// asked about: git push --force origin main - git.push-force
	// git push --force origin main → allow
	// rm -rf ~ → deny
}

// WriteFileArgs are the arguments of a home-made write tool.
type WriteFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// Wrap puts a Go tool function behind the policy: the function only runs
// when its call is allowed.
func ExampleWrap() {
	g, _ := guard.New(examplePolicy(), guard.WithWorkspace("/home/ada/project"),
		guard.WithApprover(approval.Callback(func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Approved: true, By: "callback"}, nil
		})))
	writeFile := guard.Wrap(g, "write_file", call.Who{Agent: "my-agent"},
		func(_ context.Context, a WriteFileArgs) (string, error) {
			return "wrote " + a.Path, nil // a real tool would write the file here
		})
	ctx := context.Background()
	for _, path := range []string{"/home/ada/project/notes.md", "/home/ada/.ssh/authorized_keys"} {
		out, err := writeFile(ctx, WriteFileArgs{Path: path, Content: "hello"})
		var denied *guard.DeniedError
		if errors.As(err, &denied) {
			fmt.Println("refused:", denied.Decision.Rule)
			continue
		}
		fmt.Println(out)
	}
	// Output:
	// wrote /home/ada/project/notes.md
	// refused: paths.denied
}
