package policy

import (
	"strings"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// nameKills judges a kill of the process ids a lookup found as pkill with
// the same selection is judged: kill $(pgrep node), pgrep node | xargs
// kill, kill $(pidof node), ps -C node -o pid= | xargs kill and ps aux |
// grep node | awk '{print $2}' | xargs kill signal the same processes
// pkill node does — every process of the user with that name, the agent
// itself (often a node process) and other programs' among them — and
// kill $(pgrep -P 4242) or ps --ppid 4242 -o pid= | xargs kill the ones
// pkill -P 4242 does. They get pkill's findings from the packs
// (system.kill.by-name, or system.kill.all-pkill for sshd, init, …), with
// whatever rules the policy disabled left out. A kill of ids a listing
// selects by id (ps -p 4242) or by port (lsof -ti :3000, as fuser -k
// 3000/tcp) stays kill's own tier; listings that may hold toolguard's
// processes are guardKillers'.
func (e *evaluation) nameKills(seen []analysis.Command) {
	for i := range seen {
		c := seen[i].Cmd
		var sel []shell.Word
		switch c.Name {
		case "pgrep":
			sel = pgrepSelection(c)
		case "pidof":
			sel = lookupNames(c)
		case "ps":
			sel = psSelection(c)
		}
		if len(sel) == 0 {
			continue
		}
		kill := listingKiller(seen, i)
		if kill == nil || onlyProbes(kill) {
			continue
		}
		e.addPkillFindings(c, sel)
	}
}

// addPkillFindings adds the process-kill findings the packs give pkill
// with these words (options and patterns), placed at the listing that
// selected the processes.
func (e *evaluation) addPkillFindings(listing *shell.Command, sel []shell.Word) {
	cost := urlCost
	argv := make([]shell.Word, 0, len(sel)+1)
	argv = append(argv, shell.Word{Value: "pkill", Known: true, Span: listing.Span})
	for _, n := range sel {
		argv = append(argv, n)
		cost += analysis.ScanCost(len(n.Value))
	}
	if !e.spend(cost) {
		return
	}
	synth := &shell.Command{Name: "pkill", Argv: argv, Span: listing.Span, Privileged: listing.Privileged,
		Remote: listing.Remote}
	for _, f := range e.p.rules.Classify(synth).Findings {
		if f.Category != risk.CatProcessKill {
			continue
		}
		f.Span, f.Subject = listing.Span, normalized(listing)
		e.add(f)
	}
}

// pgrepOutput are pgrep's options that change only what it prints (pkill
// has none of them, and killall's -l lists signals).
var pgrepOutput = map[string]bool{"-l": true, "--list-name": true, "-a": true, "--list-full": true, "-c": true,
	"--count": true, "-w": true, "--lightweight": true, "-q": true, "--quiet": true}

// pgrepSelection is pgrep's words as pkill's: its options that select
// processes and its pattern, without those that only shape its output
// (-l, -a, -c, -d SEP).
func pgrepSelection(c *shell.Command) []shell.Word {
	args := c.Args()
	out := make([]shell.Word, 0, len(args))
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.Value == "-d" || w.Value == "--delimiter":
			i++
			continue
		case strings.HasPrefix(w.Value, "--delimiter=") || pgrepOutput[w.Value]:
			continue
		case w.Known && len(w.Value) > 2 && w.Value[0] == '-' && w.Value[1] != '-' && strings.Trim(w.Value[1:], "lacwfxinovr") == "":
			w.Value = "-" + strings.Map(func(r rune) rune {
				if strings.ContainsRune("lacw", r) {
					return -1
				}
				return r
			}, w.Value[1:])
			if w.Value == "-" {
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// listingKiller is the kill that the process ids seen[i] prints reach,
// through its pipeline (… | xargs kill) or as a substitution a later
// command reads (kill $(pgrep node), for p in $(pgrep node); do kill $p;
// done); nil when none does.
func listingKiller(seen []analysis.Command, i int) *shell.Command {
	c := seen[i].Cmd
	fed := c.Origin == "cmdsubst"
	for n := c.PipeTo; n != nil && !fed; n = n.PipeTo {
		fed = n.Name == "kill" || n.Origin == "xargs"
	}
	if !fed {
		return nil
	}
	for _, sc := range seen[i+1:] {
		if sc.Cmd.Name == "kill" {
			return sc.Cmd
		}
	}
	return nil
}

// onlyProbes reports a kill that sends signal 0 (kill -0, kill -s 0): it
// only tests that the processes exist.
func onlyProbes(kill *shell.Command) bool {
	args := kill.Args()
	for i, a := range args {
		switch {
		case a.Value == "-0" || a.Value == "-s0" || a.Value == "--signal=0":
			return true
		case (a.Value == "-s" || a.Value == "-n" || a.Value == "--signal") && i+1 < len(args):
			return args[i+1].Known && args[i+1].Value == "0"
		case a.Value == "--" || !strings.HasPrefix(a.Value, "-"):
			return false
		}
	}
	return false
}

// lookupNames are the patterns of a pgrep (or the names of a pidof): its
// words that are neither options nor their values. pgrep -P 4242, which
// selects by parent only, names none.
func lookupNames(c *shell.Command) []shell.Word {
	args := c.Args()
	var out []shell.Word
	dashdash := false
	for i, w := range args {
		switch {
		case dashdash:
		case w.Value == "--":
			dashdash = true
			continue
		case strings.HasPrefix(w.Value, "-") && w.Known:
			continue
		case i > 0 && (takesValue(args[i-1].Value) || lookupValue(c.Name, args[i-1].Value)):
			continue
		}
		out = append(out, w)
	}
	return out
}

// lookupValue lists the options of pgrep and pidof, beyond pkill's
// (takesValue), whose value is not a pattern.
func lookupValue(name, flag string) bool {
	if name == "pidof" {
		return flag == "-o" || flag == "--omit-pid" || flag == "-S" || flag == "--separator"
	}
	return flag == "-d" || flag == "--delimiter" || flag == "-r" || flag == "--runstates"
}

// psSelection is a ps listing's selection as pkill's words: the -C
// names, -P for each --ppid, or, for a listing of many processes (ps aux,
// ps -ef), the patterns of the filters after it in the pipeline (grep
// node, awk '/node/{print $2}'). A listing of every process with no
// filter is guardKillers' (it holds toolguard's); one by id (-p) selects
// none.
func psSelection(c *shell.Command) []shell.Word {
	l := shell.ReadPs(c)
	var out []shell.Word
	for _, p := range l.Parents {
		out = append(out, shell.Word{Value: "-P", Known: true, Span: p.Span}, p)
	}
	out = append(out, l.Names...)
	if len(out) > 0 || !l.Many {
		return out
	}
	for next := c.PipeTo; next != nil; next = next.PipeTo {
		out = append(out, filterPatterns(next)...)
	}
	return out
}

// filterPatterns are the patterns a grep (not grep -v) or an awk or sed
// program keeps lines by: grep's pattern words, the /re/ of an awk or sed
// program.
func filterPatterns(f *shell.Command) []shell.Word {
	switch f.Name {
	case "grep", "egrep", "fgrep", "rg":
		return grepPatterns(f)
	case "awk", "gawk", "mawk", "sed":
		var out []shell.Word
		for _, w := range f.Args() {
			if strings.HasPrefix(w.Value, "-") {
				continue
			}
			for _, re := range slashPatterns(w.Value) {
				out = append(out, shell.Word{Value: re, Known: w.Known, Span: w.Span})
			}
		}
		return out
	}
	return nil
}

// grepPatterns are the patterns of a grep that keeps the lines matching
// them: -e values, or its first operand; none for grep -v.
func grepPatterns(f *shell.Command) []shell.Word {
	args := f.Args()
	var out []shell.Word
	explicit := false
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-v" || v == "--invert-match":
			return nil
		case (v == "-e" || v == "--regexp") && i+1 < len(args):
			out = append(out, args[i+1])
			explicit = true
			i++
		case strings.HasPrefix(v, "--regexp="):
			out = append(out, shell.Word{Value: strings.TrimPrefix(v, "--regexp="), Known: args[i].Known, Span: args[i].Span})
			explicit = true
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if strings.Contains(v[1:], "v") && !strings.HasPrefix(v, "--") {
				return nil // -iv, -vw: inverted
			}
		default:
			if !explicit && len(out) == 0 {
				out = append(out, args[i])
			}
		}
	}
	return out
}

// slashPatterns are the /re/ of an awk or sed program ("/node/{print $2}",
// "$11 ~ /vite/ {print $2}", "/node/p").
func slashPatterns(prog string) []string {
	var out []string
	for {
		i := strings.IndexByte(prog, '/')
		if i < 0 {
			return out
		}
		j := i + 1
		for j < len(prog) && prog[j] != '/' {
			if prog[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(prog) {
			return out
		}
		if j > i+1 {
			out = append(out, prog[i+1:j])
		}
		prog = prog[j+1:]
	}
}
