package policy_test

import (
	"context"
	"fmt"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// Compile turns a configuration into an immutable policy; compile once and
// share the result between goroutines.
func ExampleCompile() {
	cfg := &policy.Config{Settings: policy.Settings{Mode: "trusted", Paths: policy.Paths{Denied: []string{"~/clients/**"}}}}
	p, err := policy.Compile(cfg, policy.Options{Home: "/home/ada"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Mode())

	_, err = policy.Compile(&policy.Config{Settings: policy.Settings{Mode: "yolo"}}, policy.Options{})
	fmt.Println(err)
	// Output:
	// trusted
	// mode: unknown mode "yolo" (valid: readonly, strict, supervised, trusted, full)
}

// Decide judges one normalised call. Use the policy's tool table to turn an
// agent's tool name and arguments into a call.
func ExamplePolicy_Decide() {
	p, _ := policy.Compile(&policy.Config{}, policy.Options{Home: "/home/ada"})
	ctx := context.Background()
	for _, req := range []call.Request{
		{Tool: "Read", Input: map[string]any{"file_path": "/home/ada/project/main.go"}},
		{Tool: "Read", Input: map[string]any{"file_path": "/home/ada/.ssh/id_ed25519"}},
		{Tool: "Bash", Input: map[string]any{"command": "git push --force origin main"}},
		{Tool: "Bash", Input: map[string]any{"command": "sudo bash -c 'rm -rf /'"}},
	} {
		req.Cwd, req.Workspace = "/home/ada/project", "/home/ada/project"
		c, _ := p.Tools().Normalize(req)
		d := p.Decide(ctx, c)
		fmt.Println(d.Verdict, d.Tier, d.Blast, d.Rule)
	}
	// Output:
	// allow read none mode.supervised
	// deny read high paths.denied
	// ask destructive high git.push-force
	// deny destructive critical core.fs.rm-recursive-root
}
