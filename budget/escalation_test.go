package budget

import (
	"errors"
	"testing"
	"time"
)

func parentBounds() Bounds {
	return Bounds{
		Mode: 2, ModeName: "supervised",
		Roots:             []string{"/w"},
		ReadOnlyRoots:     []string{"/docs"},
		WriteOnlyRoots:    []string{"/out"},
		Commands:          []string{"git", "ls", "/usr/bin/make"},
		WorkspaceOnly:     true,
		ForbiddenPaths:    []string{"/etc", "/home/u/.ssh"},
		EnvPassthrough:    []string{"GOPATH"},
		MaxActionsPerHour: 20, MaxCostPerDayCents: 500,
		ShellTimeout:  time.Minute,
		BlockHighRisk: true, RequireApproval: true,
	}
}

func TestCheckEscalation(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Bounds)
		want   string // EscalationError.Dimension; "" means allowed
	}{
		{"identical", func(*Bounds) {}, ""},
		{"narrower everywhere", func(b *Bounds) {
			b.Mode = 0
			b.Roots = []string{"/w/sub"}
			b.ReadOnlyRoots = []string{"/w/lib", "/docs/a"} // rw downgraded to ro
			b.WriteOnlyRoots = []string{"/w/tmp"}
			b.Commands = []string{"GIT"}
			b.ForbiddenPaths = []string{"/etc", "/home", "/var"} // /home covers /home/u/.ssh
			b.EnvPassthrough = nil
			b.MaxActionsPerHour, b.MaxCostPerDayCents, b.ShellTimeout = 5, 10, time.Second
		}, ""},
		{"mode", func(b *Bounds) { b.Mode = 4; b.ModeName = "full"; b.Roots = []string{"/"} }, "AutonomyAboveParent"},
		{"rw root outside", func(b *Bounds) { b.Roots = []string{"/w2"} }, "ReadWriteRootNotInParent"},
		{"rw root from ro", func(b *Bounds) { b.Roots = []string{"/docs"} }, "ReadWriteRootNotInParent"},
		{"ro root outside", func(b *Bounds) { b.ReadOnlyRoots = []string{"/"} }, "ReadOnlyRootNotInParent"},
		{"ro from write-only", func(b *Bounds) { b.ReadOnlyRoots = []string{"/out"} }, "ReadOnlyRootNotInParent"},
		{"wo from ro", func(b *Bounds) { b.WriteOnlyRoots = []string{"/docs"} }, "WriteOnlyRootNotInParent"},
		{"command", func(b *Bounds) { b.Commands = []string{"git", "curl"} }, "CommandNotInParent"},
		{"wildcard", func(b *Bounds) { b.Commands = []string{"*"} }, "CommandNotInParent"},
		{"no allow-list", func(b *Bounds) { b.Commands = nil }, "CommandNotInParent"},
		{"path vs name", func(b *Bounds) { b.Commands = []string{"/bin/ls"} }, "CommandNotInParent"},
		{"workspace_only", func(b *Bounds) { b.WorkspaceOnly = false }, "WorkspaceOnlyDisabledByChild"},
		{"forbidden dropped", func(b *Bounds) { b.ForbiddenPaths = []string{"/etc"} }, "ForbiddenPathDroppedByChild"},
		{"forbidden narrowed", func(b *Bounds) { b.ForbiddenPaths = []string{"/etc/ssl", "/home/u/.ssh"} }, "ForbiddenPathDroppedByChild"},
		{"env", func(b *Bounds) { b.EnvPassthrough = []string{"GOPATH", "AWS_SECRET_ACCESS_KEY"} }, "ShellEnvPassthroughExpanded"},
		{"actions", func(b *Bounds) { b.MaxActionsPerHour = 21 }, "MaxActionsExceeded"},
		{"actions unlimited", func(b *Bounds) { b.MaxActionsPerHour = 0 }, "MaxActionsExceeded"},
		{"cost", func(b *Bounds) { b.MaxCostPerDayCents = 0 }, "MaxCostExceeded"},
		{"timeout", func(b *Bounds) { b.ShellTimeout = time.Hour }, "ShellTimeoutExceeded"},
		{"block high risk", func(b *Bounds) { b.BlockHighRisk = false }, "BlockHighRiskCommandsDisabledByChild"},
		{"require approval", func(b *Bounds) { b.RequireApproval = false }, "RequireApprovalDisabledByChild"},
		{"first violation wins", func(b *Bounds) { b.RequireApproval = false; b.Commands = []string{"rm"} }, "CommandNotInParent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			child := parentBounds()
			tt.change(&child)
			err := CheckEscalation(parentBounds(), child)
			got := ""
			if ee, ok := errors.AsType[*EscalationError](err); ok {
				got = ee.Dimension
			} else if err != nil {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if got != tt.want {
				t.Errorf("violation = %q, want %q (%v)", got, tt.want, err)
			}
		})
	}
}

func TestCheckEscalationMessages(t *testing.T) {
	child := parentBounds()
	child.Mode, child.ModeName = 4, "full"
	err := CheckEscalation(parentBounds(), child)
	if got, want := err.Error(), "sub-agent policy exceeds its parent (AutonomyAboveParent): mode full allows more than the parent's supervised"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	child = parentBounds()
	child.MaxActionsPerHour = 0
	err = CheckEscalation(parentBounds(), child)
	if got, want := err.Error(), "sub-agent policy exceeds its parent (MaxActionsExceeded): max_actions_per_hour unlimited is above the parent's 20"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestCheckEscalationUnlimitedParent(t *testing.T) {
	parent := Bounds{Mode: 4, Roots: []string{"/"}}
	child := Bounds{Mode: 1, Roots: []string{"/anything"}, Commands: []string{"rm"}, MaxActionsPerHour: 100, ShellTimeout: time.Hour}
	if err := CheckEscalation(parent, child); err != nil {
		t.Errorf("a child of an unrestricted parent: %v", err)
	}
}
