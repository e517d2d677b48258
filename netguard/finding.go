package netguard

import (
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Rule ids of the findings netguard reports.
const (
	RuleScheme        = "netguard.scheme"
	RuleInvalid       = "netguard.invalid"
	RuleIDN           = "netguard.idn"
	RuleCredentials   = "netguard.credentials"
	RuleDeniedDomain  = "netguard.denied-domain"
	RuleNotAllowed    = "netguard.not-allowed"
	RuleMetadata      = "netguard.metadata"
	RuleLoopback      = "netguard.loopback"
	RuleLinkLocal     = "netguard.link-local"
	RulePrivate       = "netguard.private"
	RuleResolveFailed = "netguard.resolve-failed"
)

// ruleSpec is what every finding of one rule has in common.
type ruleSpec struct {
	rule         string
	category     risk.Category
	blast        risk.Blast
	suggestion   string
	unverifiable bool
}

var (
	specScheme = ruleSpec{rule: RuleScheme, category: risk.CatSSRF, blast: risk.BlastHigh,
		suggestion: "use an http:// or https:// URL"}
	specInvalid = ruleSpec{rule: RuleInvalid, category: risk.CatSSRF, blast: risk.BlastUnknown,
		suggestion: "write the URL plainly as http(s)://host[:port]/path with an ASCII host name or a dotted IP address"}
	specIDN = ruleSpec{rule: RuleIDN, category: risk.CatSSRF, blast: risk.BlastUnknown, unverifiable: true,
		suggestion: "write the host in its ASCII (xn--) form"}
	specCredentials = ruleSpec{rule: RuleCredentials, category: risk.CatNetwork, blast: risk.BlastLow,
		suggestion: "pass credentials in a header or a credentials file, not in the URL"}
	specDeniedDomain = ruleSpec{rule: RuleDeniedDomain, category: risk.CatNetwork, blast: risk.BlastMedium,
		suggestion: "use a host that is not on the denied domain list"}
	specNotAllowed = ruleSpec{rule: RuleNotAllowed, category: risk.CatNetwork, blast: risk.BlastMedium,
		suggestion: "add the host to the allowed domains if it is intended"}
	specMetadata = ruleSpec{rule: RuleMetadata, category: risk.CatSSRF, blast: risk.BlastCritical,
		suggestion: "never fetch the cloud metadata service from an agent; pass the credentials a task needs explicitly"}
	specLoopback = ruleSpec{rule: RuleLoopback, category: risk.CatSSRF, blast: risk.BlastHigh,
		suggestion: "set loopback access to allow in the network policy if local services are intended"}
	specLinkLocal = ruleSpec{rule: RuleLinkLocal, category: risk.CatSSRF, blast: risk.BlastHigh,
		suggestion: "set private network access to allow in the network policy if this host is intended"}
	specPrivate = ruleSpec{rule: RulePrivate, category: risk.CatSSRF, blast: risk.BlastMedium,
		suggestion: "set private network access to allow in the network policy if this host is intended"}
	specResolveFailed = ruleSpec{rule: RuleResolveFailed, category: risk.CatSSRF, blast: risk.BlastUnknown, unverifiable: true,
		suggestion: "check the host name; netguard cannot tell where an unresolvable name leads"}
)

// classSpecs maps a destination class to its rule.
var classSpecs = [...]*ruleSpec{
	classMetadata:  &specMetadata,
	classLoopback:  &specLoopback,
	classLinkLocal: &specLinkLocal,
	classPrivate:   &specPrivate,
}

// finding builds a finding of rule s. Every netguard finding is tier Read: a
// request to a host changes nothing by itself; the verdict carries the risk.
func (s *ruleSpec) finding(v risk.Verdict, subject, reason string) risk.Finding {
	return risk.Finding{
		Rule:         s.rule,
		Category:     s.category,
		Tier:         risk.Read,
		Blast:        s.blast,
		Verdict:      v,
		Reason:       reason,
		Suggestion:   s.suggestion,
		Subject:      subject,
		Unverifiable: s.unverifiable,
	}
}

// parseFinding turns a parse error into its finding: deny, except an ask for
// a host netguard cannot map (IDN).
func parseFinding(err *parseError, subject string) risk.Finding {
	v := risk.Deny
	if err.spec == &specIDN {
		v = risk.Ask
	}
	return err.spec.finding(v, subject, err.reason)
}

// redactUserinfo replaces the user information of a URL with "REDACTED", so
// findings never carry a password or token. It works on malformed URLs too.
func redactUserinfo(raw string) string {
	start := strings.Index(raw, "//")
	if start < 0 || start != strings.IndexByte(raw, '/') {
		start = 0 // no authority marker before the path
	} else {
		start += 2
	}
	rest := raw[start:]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	at := strings.LastIndexByte(rest, '@')
	if at <= 0 {
		return raw
	}
	return raw[:start] + "REDACTED" + raw[start+at:]
}
