package policy

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
)

// systemDirs are top-level directories whose removal breaks the machine.
var systemDirs = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true, "/lib32": true,
	"/lib64": true, "/opt": true, "/proc": true, "/root": true, "/sbin": true, "/srv": true, "/sys": true,
	"/usr": true, "/var": true, "/snap": true, "/nix": true, "/Applications": true, "/System": true, "/Users": true,
}

// tempDirs are shared scratch directories below system directories; what
// they hold is disposable.
var tempDirs = map[string]bool{"/var/tmp": true, "/private/tmp": true, "/private/var/tmp": true}

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
	case systemDirs[p] || strings.Count(p, "/") == 2 && systemDirs[parent(p)] && parent(p) != "/home" && !tempDirs[p]:
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
