package policy

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// guardKillers denies signalling toolguard's processes by any route: pkill
// or killall with a name or pattern that matches toolguard, kill of the
// pids pgrep or pidof finds for it, fuser -k of its port or program, and
// systemctl stopping its service.
func (e *evaluation) guardKillers(seen []analysis.Command) {
	var finder *analysis.Command
	killer := false
	for i := range seen {
		sc := &seen[i]
		c := sc.Cmd
		switch c.Name {
		case "pkill", "killall":
			if e.patternHitsGuard(c) {
				e.add(e.killFinding(c))
				return
			}
		case "pgrep", "pidof":
			if e.patternHitsGuard(c) {
				finder = sc
			}
		case "fuser":
			if e.fuserHitsGuard(c) {
				e.add(e.killFinding(c))
				return
			}
		case "systemctl":
			if hitsService(c) {
				e.add(e.killFinding(c))
				return
			}
		}
	}
	if finder == nil {
		return
	}
	// Whatever else the call does with toolguard's process ids — kill,
	// gcore, gdb -p, strace -p, renice — is tampering, unless it only reads.
	for _, sc := range seen {
		if sc.Cmd != finder.Cmd && sc.Cmd.Name != "" && !sc.Result.Proven && !isOutputOnly(sc.Cmd) {
			killer = true
		}
	}
	if killer {
		e.add(e.killFinding(finder.Cmd))
	}
}

// isOutputOnly reports whether a command only prints its arguments.
func isOutputOnly(c *shell.Command) bool {
	return c.Name == "echo" || c.Name == "printf" || c.Name == "true" || c.Name == ":"
}

func (e *evaluation) killFinding(c *shell.Command) risk.Finding {
	return risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastHigh, Verdict: risk.Deny, Span: c.Span, Subject: normalized(c),
		Reason:     "Stopping toolguard's processes from inside an agent is not allowed.",
		Suggestion: "a person can stop toolguard in their own terminal"}
}

// guardNames are the process names and command lines a pattern is tried
// against.
func (e *evaluation) guardNames() []string {
	out := []string{"toolguard", "toolguard serve", "toolguard mcp", "toolguard hook claude-code"}
	for _, p := range e.p.selfPrograms {
		out = append(out, p, p+" serve", p+" mcp -- server")
	}
	return out
}

// patternHitsGuard reports whether a pkill, killall, pgrep or pidof
// operand matches one of toolguard's process names or command lines.
func (e *evaluation) patternHitsGuard(c *shell.Command) bool {
	regex := c.Name == "pkill" || c.Name == "pgrep"
	for _, a := range c.ArgValues() {
		if a == "-r" || a == "--regexp" {
			regex = true
		}
	}
	args := c.Args()
	for i, w := range args {
		if !w.Known || strings.HasPrefix(w.Value, "-") || i > 0 && takesValue(args[i-1].Value) {
			if !w.Known && !strings.HasPrefix(w.Value, "-") {
				return true // a pattern not known before the call: it may be toolguard
			}
			continue
		}
		if !e.spend(urlCost + analysis.ScanCost(len(w.Value))) { // a regular expression compiled and run
			return false
		}
		for _, name := range e.guardNames() {
			if regex {
				if re, err := regexp.Compile(w.Value); err == nil && re.MatchString(name) {
					return true
				}
			} else if path.Base(w.Value) == path.Base(strings.Fields(name)[0]) {
				return true
			}
		}
	}
	return false
}

// takesValue lists the pkill/killall options whose value is not a pattern.
func takesValue(flag string) bool {
	switch flag {
	case "-s", "--signal", "-u", "--user", "-U", "--uid", "-g", "--pgroup", "-G", "--group", "-t", "--terminal",
		"-P", "--parent", "-F", "--pidfile", "--ns", "--nslist", "-o", "--older-than", "-y", "--younger-than":
		return true
	}
	return false
}

// fuserHitsGuard reports fuser -k of toolguard's program or of a port its
// approval server uses.
func (e *evaluation) fuserHitsGuard(c *shell.Command) bool {
	kill := false
	for _, a := range c.ArgValues() {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "k") || a == "--kill" {
			kill = true
		}
	}
	if !kill {
		return false
	}
	for _, w := range c.Args() {
		v := w.Value
		if !w.Known {
			return true
		}
		if port, proto, ok := strings.Cut(v, "/"); ok && (proto == "tcp" || proto == "udp") {
			if n, err := strconv.Atoi(port); err == nil && slices.Contains(e.p.selfPorts, n) {
				return true
			}
		}
		if path.Base(v) == "toolguard" || slices.Contains(e.p.selfPrograms, v) {
			return true
		}
	}
	return false
}

// hitsService reports systemctl stopping, disabling or masking toolguard's
// service.
func hitsService(c *shell.Command) bool {
	verb := ""
	for _, w := range c.Args() {
		v := w.Value
		if strings.HasPrefix(v, "-") {
			continue
		}
		if verb == "" {
			verb = v
			continue
		}
		switch verb {
		case "stop", "kill", "disable", "mask", "restart", "reload", "edit", "revert", "set-property", "link", "unmask", "preset":
			if strings.HasPrefix(strings.TrimSuffix(v, ".service"), "toolguard") {
				return true
			}
		}
	}
	return false
}
