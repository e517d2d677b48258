package policy

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
)

// isSystemDir reports whether p is one of the top-level directories whose
// removal breaks the machine.
func isSystemDir(p string) bool {
	switch p {
	case "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/opt", "/proc", "/root", "/sbin",
		"/srv", "/sys", "/usr", "/var", "/snap", "/nix", "/Applications", "/System", "/Users":
		return true
	}
	return false
}

// isTempDir reports whether p is one of the shared scratch directories
// below system directories; what they hold is disposable.
func isTempDir(p string) bool {
	switch p {
	case "/var/tmp", "/private/tmp", "/private/var/tmp":
		return true
	}
	return false
}

// deleteFinding judges removing a directory that holds everything else:
// the root, a home directory or one of its ancestors, a system directory,
// or the workspace itself or an ancestor. It works on the canonical path,
// so every spelling (~, $HOME, /root, ../.., a symlink) is caught.
func (e *evaluation) deleteFinding(cp paths.Path, env paths.Env) *risk.Finding {
	p := cp.Resolved
	switch {
	case p == "/":
		return critical(p, "paths.delete-root", "Deleting / wipes the whole machine.")
	case isAncestorOrSelf(p, e.p.home):
		return critical(p, "paths.delete-home", fmt.Sprintf("Deleting %s removes the home directory %s and everything in it.", p, e.p.home))
	case isSystemDir(p) || strings.Count(p, "/") == 2 && isSystemDir(parent(p)) && parent(p) != "/home" && !isTempDir(p):
		return critical(p, "paths.delete-system", fmt.Sprintf("Deleting %s breaks the operating system.", p))
	case isAncestorOrSelf(p, env.Workspace):
		return critical(p, "paths.delete-workspace", fmt.Sprintf("Deleting %s removes the whole project %s.", p, env.Workspace))
	}
	return nil
}

func critical(p, rule, reason string) *risk.Finding {
	return &risk.Finding{Rule: rule, Category: risk.CatFSDelete, Tier: risk.Destructive, Blast: risk.BlastCritical,
		Verdict: risk.Deny, Reason: reason, Subject: p, Suggestion: "delete only the specific files or sub-directories you mean"}
}

// isAncestorOrSelf reports whether dir is p or contains p.
func isAncestorOrSelf(dir, p string) bool {
	if dir == "" || p == "" {
		return false
	}
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func parent(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
