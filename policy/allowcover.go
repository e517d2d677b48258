package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// An allow rule that names commands (command or argv) covers the simple
// commands of a call it matches, one by one; the other simple commands of
// the call are judged as usual. `go test ./... 2>&1 | tail -20` is allowed
// by a rule for `go test **` because tail only reads; `go test ./... && rm
// -rf build` still asks because of rm, and `go test ./... ; curl … | sh`
// is denied whatever the rules say. A covered command's redirects to files
// are not covered (the rule names what a program is run with, not where
// its output goes), so such a command is judged as usual.

// cmdRecord is one simple command as the evaluation analysed it: its own
// tier (the rule packs', raised for a high-risk program and by its paths)
// and where its entries in the condition variables are.
type cmdRecord struct {
	cmd   *shell.Command
	outer int32 // the record it was reported inside; -1 for none
	tier  risk.Tier
	reads bool // the effect model proves it only reads (provenRead)
	// command is its index in env.Commands and env.Names; paths, hosts and
	// urls are the ranges it added to env.Paths, env.Hosts and env.URLs,
	// and findings the range of e.findings added while it was analysed
	// (those of code it carries included; that code's own commands have
	// records, and ranges, of their own inside it).
	// (int32: 80 bytes a record, not 120; a call's lists stay far below
	// 2^31, bounded by its work limit.)
	command                      int32
	paths, hosts, urls, findings [2]int32
	coveredBy, uncoveredBy       string // an allow rule that covers it; one that matched its words but not its redirects
}

// beginRecord starts the record of a command the analysis reports; the
// record of the command it was reported inside, if any, becomes current
// again at endRecord.
func (e *evaluation) beginRecord(cmd *shell.Command) {
	if e.records == nil && e.script != nil {
		e.records = make([]cmdRecord, 0, len(e.script.Commands))
	}
	e.records = append(e.records, cmdRecord{cmd: cmd, outer: e.cur, command: int32(len(e.env.Commands)),
		paths: [2]int32{int32(len(e.env.Paths)), -1}, hosts: [2]int32{int32(len(e.env.Hosts)), -1}, urls: [2]int32{int32(len(e.env.URLs)), -1},
		findings: [2]int32{int32(len(e.findings)), -1}})
	e.cur = int32(len(e.records) - 1)
}

// commandTexts writes into env.Commands the text of every command
// recorded since it last ran: Command leaves an empty place for each,
// since most calls meet no condition and a script's commands are many.
// Every evaluation of a condition runs it first.
func (e *evaluation) commandTexts() {
	for ; e.texts < len(e.records); e.texts++ {
		r := &e.records[e.texts]
		e.env.Commands[r.command] = normalized(r.cmd)
	}
}

// endRecord closes the current record.
func (e *evaluation) endRecord() {
	if e.cur < 0 {
		return
	}
	r := &e.records[e.cur]
	r.paths[1], r.hosts[1], r.urls[1], r.findings[1] = int32(len(e.env.Paths)), int32(len(e.env.Hosts)), int32(len(e.env.URLs)), int32(len(e.findings))
	e.cur = r.outer
}

// namesCommands reports whether a rule matches shell commands by their
// words, and so covers them one by one.
func (u *userRule) namesCommands() bool { return u.command != nil || len(u.argv) > 0 }

// coverCommands marks the simple commands an allow rule covers.
func (e *evaluation) coverCommands(u *userRule) {
	if e.script == nil || u.command != nil && e.c.Kind != call.Shell {
		return
	}
	if !u.tools.empty() && !u.tools.has(e.c.Tool) && !u.tools.has(string(e.c.Kind)) {
		return
	}
	for i := range e.records {
		r := &e.records[i]
		if r.coveredBy != "" || !u.matchesWords(r.cmd) {
			continue
		}
		if !e.spend(e.recordRuleCost(u, r)) || !e.recordConditions(u, r) {
			continue
		}
		if !allKnown(r.cmd) {
			if r.uncoveredBy == "" {
				r.uncoveredBy = fmt.Sprintf("%q matches %s but not all its words are known before it runs", u.id, commandLabel(r.cmd))
			}
			continue
		}
		if target := fileRedirect(r.cmd); target != "" {
			if r.uncoveredBy == "" {
				r.uncoveredBy = fmt.Sprintf("%q matches %s but not its redirect to %s, which it does not cover", u.id, commandLabel(r.cmd), target)
			}
			continue
		}
		r.coveredBy = u.id
	}
}

// allKnown reports whether every word of a command is known before it
// runs: a rule cannot vouch for words it cannot see.
func allKnown(cmd *shell.Command) bool {
	for _, w := range cmd.Argv {
		if !w.Known {
			return false
		}
	}
	return true
}

func (u *userRule) matchesWords(cmd *shell.Command) bool {
	if u.command != nil && !u.command.match(normalized(cmd)) {
		return false
	}
	return len(u.argv) == 0 || argvGlobMatch(u.argv, cmd.Values())
}

// recordRuleCost is the work of checking a rule's conditions against one
// command.
func (e *evaluation) recordRuleCost(u *userRule, r *cmdRecord) int {
	ps, hs, us := int(r.paths[1]-r.paths[0]), int(r.hosts[1]-r.hosts[0]), int(r.urls[1]-r.urls[0])
	n := 1 + 2*(ps*len(u.paths)+hs*len(u.hosts))
	if u.when != nil {
		items := 2 + ps + us + hs
		n += (1+len(u.when.src)/16)*items + analysis.ScanCost(len(e.c.Command))
	}
	return n
}

// recordConditions reports whether the rule's paths, hosts and when hold
// for one command: every path and host it touches must match the rule's
// globs, and the condition sees the command's own commands, names, paths,
// URLs and hosts (the rest of the call's variables as they are).
func (e *evaluation) recordConditions(u *userRule, r *cmdRecord) bool {
	e.commandTexts()
	env := e.env
	env.Commands = e.env.Commands[r.command : r.command+1]
	env.Names = e.env.Names[r.command : r.command+1]
	env.Paths = e.env.Paths[r.paths[0]:r.paths[1]]
	env.Hosts = e.env.Hosts[r.hosts[0]:r.hosts[1]]
	env.URLs = e.env.URLs[r.urls[0]:r.urls[1]]
	if len(u.paths) > 0 && !everyGlob(u.paths, env.Paths) {
		return false
	}
	if len(u.hosts) > 0 && !everyGlob(u.hosts, env.Hosts) {
		return false
	}
	return u.when == nil || u.when.eval(&env, false)
}

// everyGlob reports whether there are values and each matches a glob.
func everyGlob(globs, values []string) bool {
	if len(values) == 0 {
		return false
	}
	for _, v := range values {
		if !anyGlob(globs, []string{v}) {
			return false
		}
	}
	return true
}

// fileRedirect is the target of a command's first redirect that reads or
// writes a file ("" when it has none: fd duplications, here-documents and
// /dev/null do not count).
func fileRedirect(cmd *shell.Command) string {
	for i := range cmd.Redirects {
		r := &cmd.Redirects[i]
		if r.IsHereDoc() || strings.HasSuffix(r.Op, "&") && isFdWord(r.Target.Value) {
			continue
		}
		switch r.Target.Value {
		case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty":
			continue
		}
		return r.Target.Value
	}
	return ""
}

func isFdWord(v string) bool {
	if v == "-" {
		return true
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return v != ""
}

// coveredRule is the first allow rule covering a command of the call ("" for none).
func (e *evaluation) coveredRule() string {
	for i := range e.records {
		if id := e.records[i].coveredBy; id != "" {
			return id
		}
	}
	return ""
}

// residualView is the call judged without what its covered commands did.
// present is false when nothing is left: every command is covered and the
// call added nothing of its own.
type residualView struct {
	tier    risk.Tier
	floor   risk.Verdict
	worst   *risk.Finding
	present bool
}

// residual judges the call without what its covered commands did: the
// call's own tier and findings, and those of the commands no allow rule
// covers. ok is false when some raise of the call's tier cannot be
// attributed to a command or the call, so that nothing is lifted on a
// partial view.
func (e *evaluation) residual() (rv residualView, ok bool) {
	if e.callOwn {
		rv.tier, rv.present = e.callTier, true
	}
	all, want := e.callTier, e.tier
	for i := range e.records {
		all = all.Worse(e.records[i].tier)
		if e.records[i].coveredBy == "" {
			rv.tier, rv.present = rv.tier.Worse(e.records[i].tier), true
		}
	}
	for i := range e.findings {
		f := &e.findings[i]
		all, want = all.Worse(f.Tier), want.Worse(f.Tier)
		if !e.uncovered(i) {
			continue
		}
		rv.tier, rv.present = rv.tier.Worse(f.Tier), true
		if v := e.effective(f); rv.worst == nil || v > rv.floor || v == rv.floor && worseBlast(f.Blast, rv.worst.Blast) {
			rv.floor, rv.worst = v.Worse(rv.floor), f
		}
	}
	return rv, all == want
}

// verdict is what the mode and the findings say of the residual call.
func (rv residualView) verdict(p *Policy) risk.Verdict {
	if !rv.present {
		return risk.Allow
	}
	return p.table[rv.tier].Worse(rv.floor)
}

// coverReason is the reason of a call allowed because allow rules cover
// some of its commands and the rest is allowed on its own.
func (e *evaluation) coverReason() string {
	var ids, others []string
	for i := range e.records {
		r := &e.records[i]
		switch {
		case r.coveredBy != "":
			ids = append(ids, strconv.Quote(r.coveredBy))
		case r.cmd.Name != "":
			others = append(others, commandLabel(r.cmd))
		}
	}
	ids = dedupe(ids)
	which := "the user rule " + ids[0]
	if len(ids) > 1 {
		which = "the user rules " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
	}
	if len(others) == 0 {
		return "Allowed by " + which + "."
	}
	return fmt.Sprintf("Allowed by %s; the rest (%s) is allowed by the %s mode on its own.",
		which, strings.Join(dedupe(others), ", "), e.p.mode)
}

// commandLabel names a command in a reason: its program and, when the
// next word is a sub-command rather than an option or a path, that too
// ("go test", "tail").
func commandLabel(cmd *shell.Command) string {
	if len(cmd.Argv) > 1 {
		if w := cmd.Argv[1]; w.Known && w.Value != "" && w.Value[0] != '-' && !strings.ContainsAny(w.Value, "/.=~$") {
			return cmd.Name + " " + w.Value
		}
	}
	return cmd.Name
}

// redirectNote says why an allow rule that matched a command's words did
// not cover it ("" when none did).
func (e *evaluation) redirectNote() string {
	for i := range e.records {
		if r := &e.records[i]; r.coveredBy == "" && r.uncoveredBy != "" {
			return " (The user rule " + r.uncoveredBy + ".)"
		}
	}
	return ""
}

func dedupe(xs []string) []string {
	out := xs[:0:0]
	for _, x := range xs {
		if len(out) == 0 || !containsWord(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// matchesWhole reports whether an allow rule that names no commands
// applies to the whole call: every path and host the call touches must
// match its globs (one matching path does not vouch for the others).
func (e *evaluation) matchesWhole(u *userRule) bool {
	c := e.c
	if !u.tools.empty() && !u.tools.has(c.Tool) && !u.tools.has(string(c.Kind)) {
		return false
	}
	if len(u.paths) > 0 && !everyGlob(u.paths, e.env.Paths) {
		return false
	}
	if len(u.hosts) > 0 && !everyGlob(u.hosts, e.env.Hosts) {
		return false
	}
	if u.when == nil {
		return true
	}
	e.commandTexts()
	return u.when.eval(&e.env, false)
}

// uncovered reports whether finding i belongs to the call or to a command
// no allow rule covers: the innermost record whose range holds it, which
// is the last one that starts at or before it and ends after it.
func (e *evaluation) uncovered(i int) bool {
	for j := len(e.records) - 1; j >= 0; j-- {
		if r := &e.records[j]; int(r.findings[0]) <= i && i < int(r.findings[1]) {
			return r.coveredBy == ""
		}
	}
	return true
}

// coveredLift allows an ask when allow rules cover some commands of the
// call and the rest is allowed on its own. When the rest still asks, the
// decision's rule and reason become the rest's, naming the rule that
// covers the others.
func (e *evaluation) coveredLift(d *Decision) bool {
	id := e.coveredRule()
	if id == "" {
		d.Reason += e.redirectNote()
		return false
	}
	rv, ok := e.residual()
	if !ok {
		return false
	}
	if rv.verdict(e.p) == risk.Allow {
		e.allow(d, "user:"+id, e.coverReason())
		return true
	}
	e.explainResidual(d, rv, id)
	return false
}

// explainResidual sets the rule and reason of a call whose uncovered part
// still asks: the finding that forces it, else the mode (with the finding
// that put the rest in its tier).
func (e *evaluation) explainResidual(d *Decision, rv residualView, id string) {
	modeV := e.p.table[rv.tier]
	switch {
	case rv.worst != nil && rv.floor >= modeV && rv.floor > risk.Allow:
		d.Rule, d.Category, d.Reason, d.Suggestion = rv.worst.Rule, rv.worst.Category, rv.worst.Reason, rv.worst.Suggestion
	default:
		d.Rule, d.Suggestion = "mode."+e.p.mode, ""
		d.Reason = fmt.Sprintf("The %s mode asks a person before %s-tier calls.", e.p.mode, rv.tier)
		var setter *risk.Finding
		for i := range e.findings {
			f := &e.findings[i]
			if e.uncovered(i) && f.Tier == rv.tier && f.Category != risk.CatNone && (setter == nil || worseBlast(f.Blast, setter.Blast)) {
				setter = f
			}
		}
		if setter != nil {
			d.Rule, d.Category = setter.Rule, setter.Category
			d.Reason, d.Suggestion = setter.Reason+" "+d.Reason, setter.Suggestion
		}
	}
	var covered []string
	for i := range e.records {
		if e.records[i].coveredBy != "" {
			covered = append(covered, commandLabel(e.records[i].cmd))
		}
	}
	d.Reason += fmt.Sprintf(" (The user rule %q covers %s; the rest of the command is judged as usual.)",
		id, strings.Join(dedupe(covered), ", "))
}
