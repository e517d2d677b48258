package paths

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// The rule ids of the findings this package reports.
const (
	RuleDenied        = "paths.denied"
	RuleSelf          = "paths.self"
	RuleRule          = "paths.rule"
	RuleSystem        = "paths.system"
	RuleOutside       = "paths.outside-workspace"
	RuleReadOnlyRoot  = "paths.read-only-root"
	RuleWriteOnlyRoot = "paths.write-only-root"
	RuleSensitive     = "paths.sensitive"
	RuleEscapeHatch   = "paths.escape-hatch"
	RuleNotAllowed    = "paths.not-allowed"
	RuleInvalid       = "paths.invalid"
	RuleUnverifiable  = "paths.unverifiable"
)

// base fills the fields every finding about p shares.
func (j *judge) base(rule string, p string, v risk.Verdict, blast risk.Blast) risk.Finding {
	return risk.Finding{
		Rule: rule, Category: risk.CatPath, Tier: j.access.tier(), Blast: blast,
		Verdict: v, Subject: p,
	}
}

// describe names p for a reason, showing what the caller wrote when p is the
// resolved form of something else.
func (j *judge) describe(p string) string {
	if p == j.path.Resolved && j.path.Literal != p {
		return j.path.Literal + " (which resolves to " + p + ")"
	}
	return p
}

// secretCategory is the category of a denied or sensitive finding: reading
// such a path is a secret read; changing it is a path finding.
func (j *judge) secretCategory() risk.Category {
	if j.access == Read {
		return risk.CatSecretRead
	}
	return risk.CatPath
}

func (j *judge) denied(p string, pt *pattern) risk.Finding {
	f := j.base(RuleDenied, p, risk.Deny, risk.BlastHigh)
	f.Category = j.secretCategory()
	f.Reason = fmt.Sprintf("%s %s is denied: it matches the denied path pattern %q.", j.access.verb(), j.describe(p), pt.source)
	f.Suggestion = "Leave this file alone; denied paths cannot be approved. Ask the user for what you need from it."
	return f
}

// deniedPrefix reports a dynamic path whose static directory is denied.
func (j *judge) deniedPrefix(p, dir string, pt *pattern) risk.Finding {
	f := j.base(RuleDenied, dir, risk.Deny, risk.BlastHigh)
	f.Category = j.secretCategory()
	f.Reason = fmt.Sprintf("%s %q is denied: whatever it expands to, it lies in %s, which matches the denied path pattern %q.", j.access.verb(), p, dir, pt.source)
	f.Suggestion = "Leave this directory alone; denied paths cannot be approved."
	return f
}

func (j *judge) protected(p string, pt *pattern) risk.Finding {
	f := j.base(RuleSelf, p, risk.Deny, risk.BlastHigh)
	f.Category = risk.CatSelfProtection
	f.Reason = fmt.Sprintf("%s %s is denied: it is toolguard's own configuration or an agent's hook settings (pattern %q).", j.access.verb(), j.describe(p), pt.source)
	f.Suggestion = "Only the user changes toolguard's configuration and the hook settings, outside the agent."
	return f
}

func (j *judge) ruleFinding(p string, r *compiledRule) risk.Finding {
	v := r.read
	if j.access.writes() {
		v = r.write
	}
	blast := risk.BlastNone
	if v != risk.Allow {
		blast = risk.BlastMedium
	}
	f := j.base(RuleRule, p, v, blast)
	f.Reason = fmt.Sprintf("%s %s: the path rule %q says %s.", j.access.verb(), j.describe(p), r.pattern.source, v)
	if v == risk.Deny {
		f.Suggestion = fmt.Sprintf("The path rule %q forbids %s here; choose another path.", r.pattern.source, j.access)
	}
	return f
}

func (j *judge) system(p, area string) risk.Finding {
	blast := risk.BlastMedium
	if j.access.writes() {
		blast = risk.BlastHigh
	}
	f := j.base(RuleSystem, p, risk.Deny, blast)
	f.Reason = fmt.Sprintf("%s %s is denied: %s is a kernel or device area.", j.access.verb(), j.describe(p), area)
	f.Suggestion = "Use /dev/null or a file in the workspace; only harmless device and system-information files are allowed."
	return f
}

func (j *judge) outside(p string, v risk.Verdict) risk.Finding {
	blast := [...]risk.Blast{Read: risk.BlastLow, Write: risk.BlastMedium, Delete: risk.BlastHigh}[j.access]
	f := j.base(RuleOutside, p, v, blast)
	where := "outside the workspace"
	if j.ws != "" {
		where = "outside the workspace " + j.ws
	}
	if j.ws != "" || len(j.c.roots) > 0 {
		where += " and its roots"
	}
	f.Reason = j.access.verb() + " " + j.describe(p) + " " + verdictPhrase(v) + ": it lies " + where + "."
	f.Suggestion = "Work inside the workspace, or add the directory to the policy's roots."
	if j.ws != "" {
		f.Suggestion = "Work inside " + j.ws + ", or add the directory to the policy's roots."
	}
	return f
}

// verdictPhrase phrases a verdict as the predicate of a reason.
func verdictPhrase(v risk.Verdict) string {
	switch v {
	case risk.Deny:
		return "is denied"
	case risk.Ask:
		return "needs approval"
	default:
		return "is allowed"
	}
}

func (j *judge) readOnlyRoot(p, dir string) risk.Finding {
	f := j.base(RuleReadOnlyRoot, p, risk.Deny, risk.BlastMedium)
	f.Reason = fmt.Sprintf("%s %s is denied: it lies in the read-only root %s.", j.access.verb(), j.describe(p), dir)
	f.Suggestion = fmt.Sprintf("%s may only be read; write inside the workspace instead.", dir)
	return f
}

func (j *judge) writeOnlyRoot(p, dir string) risk.Finding {
	f := j.base(RuleWriteOnlyRoot, p, risk.Deny, risk.BlastLow)
	f.Reason = fmt.Sprintf("%s %s is denied: it lies in the write-only root %s.", j.access.verb(), j.describe(p), dir)
	f.Suggestion = fmt.Sprintf("%s may only be written to, not read.", dir)
	return f
}

func (j *judge) notAllowed(p string) risk.Finding {
	f := j.base(RuleNotAllowed, p, risk.Deny, risk.BlastMedium)
	f.Reason = fmt.Sprintf("%s %s is denied: it is outside the workspace and matches none of the allowed path patterns.", j.access.verb(), j.describe(p))
	f.Suggestion = "Use a path in the workspace or one matching: " + j.allowedList() + "."
	return f
}

// allowedList names up to five allowed patterns for a suggestion.
func (j *judge) allowedList() string {
	var names []string
	allowed := j.c.allowed.patterns()
	for i, pt := range allowed {
		if i > 0 && pt.source == allowed[i-1].source {
			continue
		}
		if len(names) == 5 {
			names = append(names, "...")
			break
		}
		names = append(names, pt.source)
	}
	return strings.Join(names, ", ")
}

// escapeHatch reports a write to a file through which an agent can run
// code or widen its own permissions outside the hook.
func (j *judge) escapeHatch(p string, pt *pattern) risk.Finding {
	f := j.base(RuleEscapeHatch, p, risk.Ask, risk.BlastHigh)
	f.Category = risk.CatSelfProtection
	f.Reason = fmt.Sprintf("%s %s needs approval: an agent can use it to run code or widen its own permissions outside toolguard's hook (pattern %q).", j.access.verb(), j.describe(p), pt.source)
	f.Suggestion = "Confirm with the user that this change is theirs; review what it runs or allows."
	return f
}

func (j *judge) sensitive(p string, pt *pattern, field string) risk.Finding {
	f := j.base(RuleSensitive, p, risk.Ask, risk.BlastMedium)
	f.Category = j.secretCategory()
	kind := "a sensitive path"
	if field == "SensitiveWrite" {
		kind = "a path that is sensitive to change"
	}
	f.Reason = fmt.Sprintf("%s %s needs approval: it is %s (pattern %q).", j.access.verb(), j.describe(p), kind, pt.source)
	f.Suggestion = "Confirm with the user that the agent should touch this file."
	return f
}

func invalidFinding(p string, a Access, err error) risk.Finding {
	return risk.Finding{
		Rule: RuleInvalid, Category: risk.CatPath, Tier: a.tier(), Blast: risk.BlastUnknown,
		Verdict: risk.Deny, Subject: p,
		Reason:     fmt.Sprintf("%s %q is denied: the path %s.", a.verb(), p, problem(err)),
		Suggestion: "Pass a plain absolute path, or one relative to the working directory, without encodings or shell syntax.",
	}
}

func unverifiableFinding(p string, a Access, err error) risk.Finding {
	return risk.Finding{
		Rule: RuleUnverifiable, Category: risk.CatPath, Tier: a.tier(), Blast: risk.BlastUnknown,
		Verdict: risk.Ask, Subject: p, Unverifiable: true,
		Reason:     fmt.Sprintf("%s %q needs approval: the path %s.", a.verb(), p, problem(err)),
		Suggestion: "Spell the path out literally so it can be checked.",
	}
}

// problem extracts what is wrong from a canonicalisation error.
func problem(err error) string {
	if pe, ok := errors.AsType[*PathError](err); ok {
		return pe.Problem
	}
	return err.Error()
}

func invalidAccessFinding(p string, a Access) risk.Finding {
	err := fmt.Errorf("is requested for an unknown access %v (valid: %s)", a, strings.Join(accessNames, ", "))
	return invalidFinding(p, a, err)
}
