package policy

import (
	"os"
	"slices"

	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
)

// pathsConfig builds the path checker's settings: the built-in lists
// (which never shrink) plus the user's additions.
func (p *Policy) pathsConfig() paths.Config {
	c := p.cfg.Paths
	return paths.Config{
		Home:              p.home,
		Denied:            paths.DefaultDenied(),
		UserDenied:        append(slices.Clone(p.secrets), c.Denied...),
		NotSecret:         append(paths.DefaultNotSecret(), c.DeniedExceptions...),
		PublicFiles:       paths.DefaultPublicFiles(),
		Allowed:           c.Allowed,
		Sensitive:         paths.DefaultSensitive(),
		UserSensitive:     c.Sensitive,
		SensitiveReadable: paths.DefaultSensitiveReadable(),
		SensitiveWrite:    append(paths.DefaultSensitiveWrite(), c.SensitiveWrite...),
		Protected:         p.protected,
		Unprotected:       paths.DefaultUnprotected(),
		EscapeHatches:     paths.DefaultEscapeHatches(),
		Rules:             pathRules(c.Rules),
		Roots:             append(scratchRoots(), c.Roots...),
		ReadOnlyRoots:     c.ReadOnlyRoots,
		WriteOnlyRoots:    c.WriteOnlyRoots,
		WorkspaceOnly:     p.workspaceOnly(),
		WriteOutside:      parseVerdictOr(c.WriteOutside, risk.Ask),
		ReadOutside:       parseVerdictOr(c.ReadOutside, risk.Allow),
	}
}

// workspaceOnly is true unless set false, or the full mode (as in
// ZeroClaw) and the config does not set it.
func (p *Policy) workspaceOnly() bool {
	if b := p.cfg.Paths.WorkspaceOnly; b != nil {
		return *b
	}
	return p.cfg.modeName() != ModeFull
}

// scratchRoots are the temporary directories (/tmp, /var/tmp, $TMPDIR), always read-write roots:
// agents build and test there, and ZeroClaw's blanket ban on /tmp sends
// them to write scratch files into the project instead. Writes still follow
// the mode (the default supervised mode asks).
func scratchRoots() []string {
	roots := []string{"/tmp", "/var/tmp"}
	if d := os.TempDir(); d != "/tmp" {
		roots = append(roots, d)
	}
	return roots
}

func pathRules(rs []PathRule) []paths.Rule {
	out := make([]paths.Rule, 0, len(rs))
	for _, r := range rs {
		out = append(out, paths.Rule{Pattern: r.Pattern,
			Read: parseVerdictOr(r.Read, risk.Allow), Write: parseVerdictOr(r.Write, risk.Allow)})
	}
	return out
}

func protectedGlobs(extra []string) []string {
	return append(paths.DefaultProtected(), extra...)
}

// commandsNetworkConfig is the URL policy for hosts that shell commands
// contact: like the fetch tools' but with its own private and loopback
// verdicts (default allow).
func commandsNetworkConfig(n Network) netguard.Config {
	c := networkConfig(n)
	c.Private = netAccessOr(n.CommandsPrivate, netguard.AccessAllow)
	c.Loopback = netAccessOr(n.CommandsLoopback, netguard.AccessAllow)
	return c
}

// netAccessOr parses a configured verdict, def when it is empty; values
// are validated at load, and an invalid one denies (fail closed).
func netAccessOr(s string, def netguard.Access) netguard.Access {
	if s == "" {
		return def
	}
	a, err := netguard.ParseAccess(s)
	if err != nil {
		return netguard.AccessDeny
	}
	return a
}

func networkConfig(n Network) netguard.Config {
	return netguard.Config{
		AllowedDomains: n.AllowedDomains,
		DeniedDomains:  n.DeniedDomains,
		Private:        netAccessOr(n.Private, netguard.AccessDeny),
		Loopback:       netAccessOr(n.Loopback, netguard.AccessDeny),
		Resolve:        n.Resolve,
	}
}
