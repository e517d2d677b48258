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
// or killall with a name or pattern that matches toolguard, killall5
// (every process), kill of the pids pgrep or pidof finds for it, fuser -k
// of its port or program, and systemctl stopping its service. It reports
// whether it denied.
func (e *evaluation) guardKillers(seen []analysis.Command) bool {
	var finder *analysis.Command
	lister := -1 // the index in seen of a ps or lsof that lists toolguard's processes
	killer := false
	for i := range seen {
		sc := &seen[i]
		c := sc.Cmd
		switch c.Name {
		case "killall5": // every process but the caller's session
			if !helpOnly(c) {
				e.add(e.killFinding(c))
				return true
			}
		case "pkill", "killall":
			if e.patternHitsGuard(c) {
				e.add(e.killFinding(c))
				return true
			}
		case "pgrep", "pidof":
			if e.patternHitsGuard(c) {
				finder = sc
			}
		case "ps":
			if lister < 0 && (c.PipeTo != nil || c.Origin == "cmdsubst") && e.psHitsGuard(c) {
				lister = i // ps -C toolguard -o pid= | xargs kill; kill $(ps -ef | grep toolguard | awk …)
			}
		case "lsof":
			if lister < 0 && (c.PipeTo != nil || c.Origin == "cmdsubst") && e.lsofHitsGuard(c) {
				lister = i // lsof -ti :7878 | xargs kill
			}
		case "fuser":
			if e.fuserHitsGuard(c) {
				e.add(e.killFinding(c))
				return true
			}
		case "systemctl":
			if hitsService(c) {
				e.add(e.killFinding(c))
				return true
			}
		}
	}
	if lister >= 0 && listingUsed(seen, lister) {
		e.add(e.killFinding(seen[lister].Cmd))
		return true
	}
	if finder == nil {
		return false
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
	return killer
}

// pidUsers are the programs that act on the processes whose ids they are
// given: signal, trace, dump, reprioritise or limit them.
var pidUsers = map[string]bool{"kill": true, "renice": true, "gdb": true, "strace": true, "ltrace": true,
	"gcore": true, "taskset": true, "prlimit": true, "ionice": true, "chrt": true, "cpulimit": true, "lldb": true,
	"perf": true, "nsenter": true, "criu": true}

// listingUsed reports whether the output of seen[i] (a ps or lsof) reaches
// a command that acts on process ids: through its pipeline (… | xargs
// kill, … | xargs -I{} sh -c 'kill {}'), or as a substitution read by a
// later command of the call (kill $(ps …)). ps and lsof list much besides
// toolguard; only their ids put to use make the listing a way to reach it.
func listingUsed(seen []analysis.Command, i int) bool {
	c := seen[i].Cmd
	fed := c.Origin == "cmdsubst"
	for n := c.PipeTo; n != nil && !fed; n = n.PipeTo {
		fed = pidUsers[n.Name] || n.Origin == "xargs"
	}
	if !fed {
		return false
	}
	for _, sc := range seen[i+1:] {
		if pidUsers[sc.Cmd.Name] {
			return true
		}
	}
	return false
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
		if regex && (a == "--inverse" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "vfxin") == "" &&
			strings.Contains(a, "v")) {
			return true // pkill -v node: every process but node's, toolguard's among them
		}
	}
	args := c.Args()
	pattern, selects := false, false
	for i, w := range args {
		if w.Known && i > 0 && (selectsMany(args[i-1].Value) || orphansOf(args[i-1].Value, w.Value)) {
			selects = true
		}
		if !w.Known || strings.HasPrefix(w.Value, "-") || i > 0 && takesValue(args[i-1].Value) {
			if !w.Known && !strings.HasPrefix(w.Value, "-") {
				return true // a pattern not known before the call: it may be toolguard
			}
			continue
		}
		pattern = true
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
	// pgrep -u dev, pkill -u dev: no pattern, every process of a user (a
	// group, a session, a terminal), toolguard's own among them
	return !pattern && selects
}

// orphansOf reports -P 1 (--parent 1): the children of init, where a
// server started in the background and left (toolguard serve among them)
// ends up.
func orphansOf(flag, value string) bool {
	return (flag == "-P" || flag == "--parent") && slices.Contains(strings.Split(value, ","), "1")
}

// helpOnly reports a command given only --help, -h, -V or --version.
func helpOnly(c *shell.Command) bool {
	args := c.ArgValues()
	return len(args) > 0 && !slices.ContainsFunc(args, func(a string) bool {
		return a != "--help" && a != "-h" && a != "-V" && a != "--version"
	})
}

// selectsMany lists the pgrep, pkill and killall options that select
// processes by owner, group, session, terminal or namespace.
func selectsMany(flag string) bool {
	switch flag {
	case "-u", "--euid", "--user", "-U", "--uid", "-G", "--group", "-g", "--pgroup", "-s", "--session", "-t", "--terminal",
		"--cgroup", "--ns":
		return true
	}
	return false
}

// psHitsGuard reports whether the process ids a ps feeds on may be
// toolguard's: it selects processes by a name of toolguard's program
// (ps -C toolguard), or it lists every process or a user's (ps -e, ps aux,
// ps -u dev) and nothing after it in the pipeline filters them, or a
// filter after it names toolguard (grep '[t]oolguard', awk '/toolguard/').
func (e *evaluation) psHitsGuard(c *shell.Command) bool {
	l := shell.ReadPs(c)
	if l.Unknown {
		return true
	}
	for _, name := range l.Names {
		if !name.Known || e.isGuardName(name.Value) {
			return true
		}
	}
	many := l.Many
	for _, p := range l.Parents {
		// --ppid 1: the orphans, where a server started in the background
		// and left (toolguard serve among them) ends up
		many = many || !p.Known || strings.TrimLeft(p.Value, "0") == "1"
	}
	if !many {
		return false
	}
	for next := c.PipeTo; next != nil; next = next.PipeTo {
		if keeps, decides := e.filterHitsGuard(next); decides {
			return keeps
		}
	}
	return true
}

// filterHitsGuard reports, for a command after a listing of every
// process, whether it decides which lines go on (grep PATTERN, awk
// '/re/ …', sed -n '/re/p') and whether it keeps toolguard's: a word of it
// that names toolguard, or a pattern of grep that matches one of its
// command lines. grep -v, head and any other command decide nothing.
func (e *evaluation) filterHitsGuard(f *shell.Command) (keeps, decides bool) {
	grep := f.Name == "grep" || f.Name == "egrep" || f.Name == "fgrep" || f.Name == "rg"
	if !grep && f.Name != "awk" && f.Name != "gawk" && f.Name != "mawk" && f.Name != "sed" {
		return false, false
	}
	if !grep && len(filterPatterns(f)) == 0 && allKnown(f) {
		return false, false // awk '{print $2}', sed 's/^ *//': every line goes on
	}
	for _, w := range f.Args() {
		if !w.Known {
			return true, true
		}
		if grep && (w.Value == "-v" || w.Value == "--invert-match") {
			return false, false
		}
	}
	names := e.guardNames()
	for _, w := range f.Args() {
		v := w.Value
		var re *regexp.Regexp
		if grep && !strings.HasPrefix(v, "-") {
			if !e.spend(urlCost + analysis.ScanCost(len(v))) { // a regular expression compiled and run
				return true, true
			}
			re, _ = regexp.Compile(v)
		}
		for _, name := range names {
			if strings.Contains(v, strings.Fields(name)[0]) || re != nil && re.MatchString(name) {
				return true, true
			}
		}
	}
	return false, true
}

// isGuardName reports whether name is the name of toolguard's program.
func (e *evaluation) isGuardName(name string) bool {
	if name == "toolguard" {
		return true
	}
	for _, p := range e.p.selfPrograms {
		if path.Base(p) == path.Base(name) {
			return true
		}
	}
	return false
}

// lsofHitsGuard reports an lsof that lists toolguard's processes: those
// using a port of its approval server (-i :7878, -i tcp:7878) or whose
// name begins with what -c gives (lsof -c tool), or a value not known
// before the call.
func (e *evaluation) lsofHitsGuard(c *shell.Command) bool {
	args := c.Args()
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		opt, val := "", ""
		switch {
		case (v == "-i" || v == "-c") && i+1 < len(args):
			opt, val = v, args[i+1].Value
			if !args[i+1].Known {
				return true
			}
			i++
		case strings.HasPrefix(v, "-i") || strings.HasPrefix(v, "-c"):
			opt, val = v[:2], v[2:]
		case strings.HasPrefix(v, "-") && len(v) > 2 && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "ic"):
			// -ti :7878: a cluster ending in i or c takes the next word
			last := v[len(v)-1:]
			if (last == "i" || last == "c") && i+1 < len(args) {
				opt, val = "-"+last, args[i+1].Value
				if !args[i+1].Known {
					return true
				}
				i++
			}
		}
		if !w.Known {
			return true
		}
		switch opt {
		case "-i":
			if _, port, ok := cutLast(val, ":"); ok {
				if n, err := strconv.Atoi(port); err == nil && slices.Contains(e.p.selfPorts, n) {
					return true
				}
			}
		case "-c":
			if val != "" && (strings.HasPrefix("toolguard", val) || strings.HasPrefix(val, "/")) {
				return true
			}
			for _, p := range e.p.selfPrograms {
				if strings.HasPrefix(path.Base(p), val) {
					return true
				}
			}
		}
	}
	return false
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
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
