package approval

import (
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/risk"
)

// Shown is r as a person is shown it (the terminal prompt, the page's
// card, the event feed): secrets in the command, the arguments, the
// reason and the findings are masked as in the audit log. The person
// still sees what would run, but a password passed on the command line is
// not put on a screen or into a log. When masking changed the command,
// the findings' spans no longer fit it and are cleared. r is not
// modified; grants are made from the original request.
func Shown(r Request) Request {
	c, d := r.Call, r.Decision
	masked := audit.RedactString(c.Command)
	commandChanged := masked != c.Command
	c.Command = masked
	if c.Input != nil {
		if in, ok := audit.Redact(c.Input).(map[string]any); ok {
			c.Input = in
		}
	}
	d.Reason, d.Suggestion = audit.RedactString(d.Reason), audit.RedactString(d.Suggestion)
	if len(d.Findings) > 0 {
		fs := make([]risk.Finding, len(d.Findings))
		for i, f := range d.Findings {
			f.Reason, f.Suggestion, f.Subject = audit.RedactString(f.Reason), audit.RedactString(f.Suggestion), audit.RedactString(f.Subject)
			if commandChanged {
				f.Span = risk.Span{}
			}
			fs[i] = f
		}
		d.Findings = fs
	}
	return Request{Call: c, Decision: d}
}
