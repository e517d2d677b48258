package policy

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolguard/toolguard/call"
)

// TestNestedEvaluationShares checks that an evaluation made within another
// (the decision of code a write persists) asks the file system through
// the outer call's lookups and reads through its files' memo under the
// same policy, and under another policy shares the lookups only; and
// that a text the outer call read is not read again from the disk.
func TestNestedEvaluationShares(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "project")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ws, "run.sh")
	if err := os.WriteFile(file, []byte("echo one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Compile(&Config{}, Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	other, err := Compile(&Config{}, Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	c := &call.Call{Kind: call.Shell, Tool: "Bash", Command: "true", Cwd: ws, Workspace: ws}
	ctx := context.Background()
	outer := p.newEvaluation(ctx, c, nil)
	if text, err := outer.files.Read(file); err != nil || text != "echo one\n" {
		t.Fatalf("outer read: %q, %v", text, err)
	}
	// the file changes on disk: a nested evaluation of the same call sees
	// the text of the call's moment, as the outer one would
	if err := os.WriteFile(file, []byte("echo two\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	same := p.newEvaluation(ctx, c, outer)
	if same.files.env.Lookups != outer.files.env.Lookups || same.an.PathEnv("").Lookups != outer.an.PathEnv("").Lookups {
		t.Error("a nested evaluation under the same policy has lookups of its own")
	}
	if text, err := same.files.Read(file); err != nil || text != "echo one\n" {
		t.Errorf("nested read under the same policy: %q, %v; want the outer call's text", text, err)
	}

	apart := other.newEvaluation(ctx, c, outer)
	if apart.files.env.Lookups != outer.files.env.Lookups {
		t.Error("a nested evaluation under another policy has lookups of its own")
	}
	if text, err := apart.files.Read(file); err != nil || text != "echo two\n" {
		t.Errorf("nested read under another policy: %q, %v; want the file read again", text, err)
	}

	alone := p.newEvaluation(ctx, c, nil)
	if alone.files.env.Lookups == outer.files.env.Lookups {
		t.Error("an evaluation of its own shares another's lookups")
	}
	if text, err := alone.files.Read(file); err != nil || text != "echo two\n" {
		t.Errorf("read of a call of its own: %q, %v", text, err)
	}
}
