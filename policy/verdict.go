package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
)

// userRules applies [[rules]] (DESIGN §4 step 4): deny and ask rules add
// findings; the first matching allow rule is remembered and may lift asks.
func (e *evaluation) userRules() {
	for _, u := range e.p.user {
		if !e.spend(e.ruleCost(u)) {
			return // over the work limit: the call is unverifiable, which no allow rule lifts
		}
		switch {
		case u.action == risk.Allow && u.namesCommands():
			e.coverCommands(u)
			continue
		case u.action == risk.Allow:
			if e.allowed == "" && e.matchesWhole(u) {
				e.allowed = u.id
			}
			continue
		case !e.matches(u):
			continue
		}
		e.add(risk.Finding{Rule: "user:" + u.id, Tier: e.tier, Blast: risk.BlastMedium, Verdict: u.action,
			Reason: u.reasonText(), Subject: e.c.Tool, Category: risk.CatNone})
	}
}

func (u *userRule) reasonText() string {
	if u.reason != "" {
		return u.reason
	}
	return fmt.Sprintf("The user rule %q matches this call.", u.id)
}

// matches reports whether a deny or ask rule applies: every condition it
// sets holds, command conditions for at least one simple command, path
// and host globs for at least one path or host. (Allow rules are stricter:
// see allowcover.go.)
func (e *evaluation) matches(u *userRule) bool {
	c := e.c
	if !u.tools.empty() && !u.tools.has(c.Tool) && !u.tools.has(string(c.Kind)) {
		return false
	}
	if u.command != nil && (c.Kind != call.Shell || !u.command.matchesAny(e.script)) {
		return false
	}
	if len(u.argv) > 0 && !e.argvMatchesAny(u.argv) {
		return false
	}
	if len(u.paths) > 0 && !anyGlob(u.paths, e.env.Paths) {
		return false
	}
	if len(u.hosts) > 0 && !anyGlob(u.hosts, e.env.Hosts) {
		return false
	}
	if u.when == nil {
		return true
	}
	e.commandTexts()
	return u.when.eval(&e.env, true)
}

func (e *evaluation) argvMatchesAny(pat []string) bool {
	if e.script == nil {
		return false
	}
	for _, cmd := range e.script.Commands {
		if argvGlobMatch(pat, cmd.Values()) {
			return true
		}
	}
	return false
}

func anyGlob(globs, values []string) bool {
	for _, v := range values {
		for _, g := range globs {
			if ok, _ := doublestar.Match(g, v); ok {
				return true
			}
		}
	}
	return false
}

// distinct drops a finding that repeats an earlier one's rule, verdict
// and place (two denied-command patterns, "curl|sh" and "curl | sh", that
// match the same command are one finding).
func distinct(fs []risk.Finding) []risk.Finding {
	if len(fs) > 32 {
		return distinctMany(fs)
	}
	for i := 1; i < len(fs); i++ {
		for j := range i {
			if sameFinding(&fs[i], &fs[j]) {
				return distinctMany(fs)
			}
		}
	}
	return fs // the usual case: a few findings, none repeated, nothing allocated
}

func sameFinding(a, b *risk.Finding) bool {
	return a.Rule == b.Rule && a.Span == b.Span && a.Verdict == b.Verdict && a.Subject == b.Subject
}

// distinctMany copies fs without the findings that repeat an earlier one.
func distinctMany(fs []risk.Finding) []risk.Finding {
	type key struct {
		rule, subject string
		span          risk.Span
		verdict       risk.Verdict
	}
	seen := make(map[key]bool, len(fs))
	out := make([]risk.Finding, 0, len(fs))
	for _, f := range fs {
		if k := (key{f.Rule, f.Subject, f.Span, f.Verdict}); !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// decide combines the findings with the mode table (DESIGN §4 steps 7, 9).
func (e *evaluation) decide() Decision {
	p := e.p
	d := Decision{Tier: e.tier, Findings: distinct(e.findings), Mode: p.mode, Profile: p.profile}
	floor, worst := e.floor()
	for _, f := range e.findings {
		d.Tier = d.Tier.Worse(f.Tier)
		d.Blast = d.Blast.Worse(f.Blast)
		d.Unverifiable = d.Unverifiable || f.Unverifiable
	}
	if len(e.findings) == 0 {
		d.Blast = defaultBlast(d.Tier)
		if e.raised && d.Tier == risk.Execute && e.effects < risk.Execute {
			d.Blast = defaultBlast(e.effects) // rm -rf dist: a known delete, raised to execute for rm
		}
	}
	modeV := p.table[d.Tier]
	d.Verdict = modeV.Worse(floor)
	e.explain(&d, worst, modeV, floor)
	e.lift(&d, modeV, floor)
	e.finish(&d)
	return d
}

// floor is the least verdict the findings force, and the finding that
// forces it (the worst one).
func (e *evaluation) floor() (risk.Verdict, *risk.Finding) {
	var floor risk.Verdict
	var worst *risk.Finding
	for i := range e.findings {
		f := &e.findings[i]
		v := e.effective(f)
		if worst == nil || v > floor || v == floor && worseBlast(f.Blast, worst.Blast) {
			floor, worst = v.Worse(floor), f
		}
	}
	return floor, worst
}

// effective is the verdict a finding forces in this policy.
func (e *evaluation) effective(f *risk.Finding) risk.Verdict {
	v := f.Verdict
	if f.Unverifiable {
		v = v.Worse(risk.Ask)
	}
	switch f.Blast {
	case risk.BlastCritical:
		return risk.Deny
	case risk.BlastHigh:
		if boolOr(e.p.cfg.Commands.BlockHighRisk, false) && f.Verdict < risk.Deny && !e.allowListed(f) {
			return risk.Deny
		}
	case risk.BlastMedium:
		if boolOr(e.p.cfg.Commands.RequireApprovalForMediumRisk, false) {
			v = v.Worse(risk.Ask)
		}
	}
	return v
}

// allowListed reports whether the finding's command is explicitly in the
// allowed commands (which lets ZeroClaw run high-risk commands).
func (e *evaluation) allowListed(f *risk.Finding) bool {
	if e.script == nil {
		return false
	}
	for _, c := range e.script.Commands {
		if c.Span == f.Span && e.p.allowed.explicit(c) {
			return true
		}
	}
	return false
}

func defaultBlast(t risk.Tier) risk.Blast {
	switch t {
	case risk.Read:
		return risk.BlastNone
	case risk.Write:
		return risk.BlastLow
	case risk.Execute:
		return risk.BlastUnknown
	}
	return risk.BlastHigh
}

// explain fills rule, category, reason and suggestion from whatever
// decided: the worst finding, or the mode table.
func (e *evaluation) explain(d *Decision, worst *risk.Finding, modeV, floor risk.Verdict) {
	if worst != nil {
		d.Category = worst.Category
	}
	if worst != nil && floor >= modeV && floor > risk.Allow {
		d.Rule, d.Reason, d.Suggestion = worst.Rule, worst.Reason, worst.Suggestion
		return
	}
	d.Rule = modeRule(e.p.mode)
	d.Reason = e.modeReason(d, modeV)
	if tierSetter := e.tierFinding(d.Tier); tierSetter != nil {
		// The finding put the call in this tier: it is what decided.
		d.Rule, d.Category = tierSetter.Rule, tierSetter.Category
		d.Reason, d.Suggestion = tierSetter.Reason+" "+d.Reason, tierSetter.Suggestion
	}
}

// worseBlast reports whether a is strictly worse than b.
func worseBlast(a, b risk.Blast) bool { return a != b && a.Worse(b) == a }

// tierFinding is the worst-blast finding at tier t, if any.
func (e *evaluation) tierFinding(t risk.Tier) *risk.Finding {
	var best *risk.Finding
	for i := range e.findings {
		f := &e.findings[i]
		if f.Tier == t && f.Category != risk.CatNone && (best == nil || worseBlast(f.Blast, best.Blast)) {
			best = f
		}
	}
	return best
}

func (e *evaluation) modeReason(d *Decision, v risk.Verdict) string {
	if t, ok := presetTexts[e.p.mode]; ok && v <= risk.Deny && d.Tier <= risk.Destructive {
		return t.reason(e.p.mode, v, d.Tier) // the same text, made once
	}
	return modeReasonText(e.p.mode, v, d.Tier)
}

// modeRule is the rule id of a decision the mode table made.
func modeRule(mode string) string {
	if t, ok := presetTexts[mode]; ok {
		return t.rule
	}
	return "mode." + mode
}

// modeTexts are a preset mode's rule id and reasons, by verdict and tier,
// each made once rather than for every call the mode table decides. A
// reason is made when first needed, not when the package starts: making
// all sixty with fmt cost every hook process ~0.14 M instructions, and a
// process needs one.
type modeTexts struct {
	rule    string
	reasons [risk.Deny + 1][risk.Destructive + 1]atomic.Pointer[string]
}

// reason returns the mode's text for verdict v at tier t (both in range),
// making it on first use; two goroutines racing make the same text.
func (m *modeTexts) reason(mode string, v risk.Verdict, t risk.Tier) string {
	slot := &m.reasons[v][t]
	if p := slot.Load(); p != nil {
		return *p
	}
	text := modeReasonText(mode, v, t)
	slot.Store(&text)
	return text
}

// presetTexts holds the texts of every preset mode.
var presetTexts = func() map[string]*modeTexts {
	m := make(map[string]*modeTexts)
	for _, mode := range Modes() {
		m[mode] = &modeTexts{rule: "mode." + mode}
	}
	return m
}()

// modeReasonText says why the mode's table gave a tier verdict v.
func modeReasonText(mode string, v risk.Verdict, tier risk.Tier) string {
	switch v {
	case risk.Allow:
		return fmt.Sprintf("The %s mode allows %s-tier calls.", mode, tier)
	case risk.Ask:
		return fmt.Sprintf("The %s mode asks a person before %s-tier calls.", mode, tier)
	}
	return fmt.Sprintf("The %s mode denies %s-tier calls.", mode, tier)
}

// lift applies allow rules, grants, auto_approve and always_ask: an ask may
// become allow (never a deny, never an unverifiable ask); always_ask turns
// an allow into ask.
func (e *evaluation) lift(d *Decision, modeV, floor risk.Verdict) {
	g := e.p.gate
	if d.Verdict == risk.Ask && !d.Unverifiable {
		switch {
		case e.allowed != "":
			e.allow(d, "user:"+e.allowed, fmt.Sprintf("Allowed by the user rule %q.", e.allowed))
		case e.coveredLift(d):
		case e.grant() != "":
			label := e.grant()
			e.allow(d, "grant:"+label, fmt.Sprintf("Allowed by the standing approval %s.", label))
		case floor < risk.Ask && (g.autoApprove.has(e.c.Tool)):
			e.allow(d, "tools.auto_approve", fmt.Sprintf("The tool %s is auto-approved.", e.c.Tool))
		}
	}
	if d.Verdict == risk.Allow && g.alwaysAsk.has(e.c.Tool) {
		d.Verdict, d.Rule = risk.Ask, "tools.always_ask"
		d.Reason = fmt.Sprintf("The policy always asks before %s.", e.c.Tool)
	}
}

func (e *evaluation) allow(d *Decision, rule, reason string) {
	d.Verdict, d.Rule, d.Reason, d.Suggestion = risk.Allow, rule, reason, ""
}

// grant returns the label of a standing grant that covers the call.
// A grant of a command or a command prefix is about the command, so it
// applies to every shell call whatever the agent names its shell tool
// (Bash, run_shell_command, exec_command, toolguard check's "shell");
// other grants apply to their tool, limited to the paths and URLs or the
// exact arguments they name.
func (e *evaluation) grant() string {
	for _, g := range e.p.grants {
		if g.covers(e) {
			return g.label
		}
	}
	return ""
}

func (g *grantRule) covers(e *evaluation) bool {
	switch {
	case g.command != "":
		return e.c.Kind == call.Shell && strings.TrimSpace(e.c.Command) == g.command
	case g.prefix != nil:
		return e.c.Kind == call.Shell && g.prefix.matchesScript(e.script)
	}
	if ok, _ := path.Match(g.tool, e.c.Tool); !ok {
		return false
	}
	switch {
	case len(g.paths)+len(g.urls) > 0:
		return len(e.c.Paths)+len(e.c.URLs) > 0 && allIn(e.c.Paths, g.paths) && allIn(e.c.URLs, g.urls)
	case g.digest != "":
		return call.ArgsDigest(*e.c) == g.digest
	}
	return true
}

func allIn(xs, set []string) bool {
	for _, x := range xs {
		if !slices.Contains(set, x) {
			return false
		}
	}
	return true
}

// finish applies the invariants: unverifiable is never allow; unattended
// turns ask into deny.
func (e *evaluation) finish(d *Decision) {
	if d.Unverifiable && d.Verdict == risk.Allow {
		d.Verdict = risk.Ask
	}
	if e.p.cfg.Unattended && d.Verdict == risk.Ask {
		d.Verdict = risk.Deny
		d.Reason += " No person can answer (unattended), so the call is denied."
		d.Suggestion = "allow this call in the policy, or run with an approver"
	}
}
