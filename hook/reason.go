package hook

import (
	"errors"
	"strings"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Rule ids of the decisions the hook layer makes itself.
const (
	RuleInvalidPayload = "hook.invalid-payload" // unreadable, truncated or oversize stdin
	RuleUnknownEvent   = "hook.unknown-event"   // a hook_event_name the adapter does not answer
	RuleInternal       = "hook.internal-error"  // a panic while deciding
)

// PolicyFile is where people add rules; reasons point there.
const PolicyFile = "~/.config/toolguard/policy.toml"

// errUnknownEvent is wrapped by Decode errors about unsupported events.
var errUnknownEvent = errors.New("unknown hook event")

func ruleFor(err error) string {
	if errors.Is(err, errUnknownEvent) {
		return RuleUnknownEvent
	}
	return RuleInvalidPayload
}

func failDecision(rule, reason string) policy.Decision {
	return policy.Decision{
		Verdict: risk.Deny, Tier: risk.Destructive, Blast: risk.BlastUnknown,
		Category: risk.CatInput, Rule: rule, Reason: reason, Unverifiable: true,
	}
}

// sanitize keeps a decision inside the contract: an invalid verdict is a
// deny and an unverifiable decision is never an allow.
func sanitize(d policy.Decision) policy.Decision {
	if d.Verdict > risk.Deny {
		d.Verdict = risk.Deny
	}
	if d.Unverifiable && d.Verdict == risk.Allow {
		d.Verdict = risk.Ask
	}
	return d
}

// maxReason keeps replies well under Claude Code's 10,000 character cap.
const maxReason = 2000

func clip(s string) string {
	if len(s) <= maxReason {
		return s
	}
	cut := maxReason
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func ruleOf(d policy.Decision) string {
	if d.Rule == "" {
		return "unknown"
	}
	return d.Rule
}

func reasonOf(d policy.Decision) string {
	r := strings.TrimSpace(d.Reason)
	if r == "" {
		return "no reason was given"
	}
	return strings.TrimSuffix(r, ".")
}

func suggestionOf(d policy.Decision) string {
	if s := strings.TrimSpace(d.Suggestion); s != "" {
		return " Instead: " + strings.TrimSuffix(s, ".") + "."
	}
	return ""
}

// denyText is the reason of a deny, for the model and the person.
func denyText(d policy.Decision) string {
	return clip("toolguard blocked this call: " + reasonOf(d) + " (rule " + ruleOf(d) + ")." + suggestionOf(d))
}

// askText is the reason shown on an approval prompt.
func askText(d policy.Decision) string {
	return clip("toolguard asks for approval: " + reasonOf(d) + " (rule " + ruleOf(d) + ")." + suggestionOf(d))
}

// allowText is the reason of an allow.
func allowText(d policy.Decision) string {
	if d.Contained {
		return clip("toolguard allowed this call (rule " + ruleOf(d) + ") to run contained: " + ContainedText)
	}
	return clip("toolguard allowed this call (rule " + ruleOf(d) + ").")
}

// ContainedText says what a call that runs contained may do, for the
// agent's reply and toolguard's page.
const ContainedText = "its command runs through toolguard exec --wrapped, in a sandbox where it can write only the project, the temporary directories and the toolchains' caches, and cannot read secrets."

// approvalText is the reason of an ask that the agent cannot ask: it tells
// the person how to approve, and names no command the model could run.
func approvalText(agent string, d policy.Decision) string {
	return clip("toolguard needs a person to approve this call and " + agent +
		" cannot ask from this hook, so it was blocked: " + reasonOf(d) + " (rule " + ruleOf(d) + ")." +
		suggestionOf(d) + " To allow it, a person approves it in the toolguard page or terminal, or adds an allow rule to " +
		PolicyFile + ".")
}

// modelApprovalText tells the model what to do after approvalText.
func modelApprovalText(agent string, d policy.Decision) string {
	return clip(approvalText(agent, d) + " Do not try another way to do the same thing; tell the user what you wanted to do and why.")
}

// noOpinion is the reply that leaves the decision to the agent.
var noOpinion = []byte("{}\n")

// headlessAgentText is the deny reason for an ask in an agent started to
// run without its interface, where nobody can answer it.
func headlessAgentText(agent string, d policy.Decision) string {
	return clip("toolguard needs a person to approve this call, and " + agent +
		" runs without its interface here (headless), where nobody can answer, so it was blocked: " +
		reasonOf(d) + " (rule " + ruleOf(d) + ")." + suggestionOf(d) +
		" To allow it, run " + agent + " interactively, have a person approve it in a running toolguard serve page ([approval] server), or add an allow rule to " + PolicyFile + ".")
}
