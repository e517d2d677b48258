package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func init() { register("audit", newAuditCmd) }

type auditFlags struct {
	since   string
	verdict string
	tool    string
	json    bool
	follow  bool
	file    string
	config  string
}

func newAuditCmd(a *app) *cobra.Command {
	f := &auditFlags{}
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Show the decision log",
		Long: `Show toolguard's decision receipts, oldest first, rotated files included.

The log is the [audit] path of the policy (user file, then --config), by
default $XDG_STATE_HOME/toolguard/audit.jsonl; --file reads another one.
When the policy sets [state] url (fleet mode), the records of every replica
and hook are read from that database instead.
Secrets were redacted when the records were written.

--since takes a duration (90m, 24h, 7d), a date (2026-11-21) or a time
(2026-11-21T09:00:00Z). --verdict takes allow, ask or deny, or several
separated by commas. --tool matches the tool name or its kind (shell, write,
…). --follow keeps printing new records until interrupted.`,
		Args: cobra.NoArgs,
	}
	fl := cmd.Flags()
	fl.StringVar(&f.since, "since", "", "only records at or after this time or this long ago")
	fl.StringVar(&f.verdict, "verdict", "", "only these verdicts (allow, ask, deny; comma-separated)")
	fl.StringVar(&f.tool, "tool", "", "only this tool name or kind")
	fl.BoolVar(&f.json, "json", false, "print JSON lines instead of a table")
	fl.BoolVar(&f.follow, "follow", false, "keep printing new records")
	fl.StringVar(&f.file, "file", "", "the audit log to read (default: the policy's, else $XDG_STATE_HOME/toolguard/audit.jsonl)")
	fl.StringVar(&f.config, "config", os.Getenv("TOOLGUARD_CONFIG"), "policy file that may set [audit] path")
	cmd.RunE = func(*cobra.Command, []string) error { return runAudit(a, f) }
	return cmd
}

func runAudit(a *app, f *auditFlags) error {
	filter, err := f.filter(time.Now())
	if err != nil {
		return err
	}
	path, stateURL, err := f.source()
	if err != nil {
		return err
	}
	emit := recordPrinter(a.io.Stdout, f.json)
	if !f.json {
		fmt.Fprintln(a.io.Stdout, auditHeader())
	}
	if stateURL != "" {
		return runFleetAudit(a, f, stateURL, filter, emit)
	}
	if f.follow {
		return audit.Follow(a.ctx, path, filter, emit)
	}
	recs, err := audit.Query(path, filter)
	for _, r := range recs {
		if perr := emit(r); perr != nil {
			return perr
		}
	}
	return warnMalformed(a.io.Stderr, err)
}

// warnMalformed reports skipped lines without failing the listing.
func warnMalformed(w io.Writer, err error) error {
	if _, ok := errors.AsType[*audit.MalformedError](err); ok {
		fmt.Fprintln(w, "toolguard: warning:", err)
		return nil
	}
	return err
}

// source is the audit log file to read, or the fleet database's URL when
// the policy sets [state] url (and --file is not given).
func (f *auditFlags) source() (path, stateURL string, err error) {
	if f.file != "" {
		return f.file, "", nil
	}
	loaded, err := policy.Load(policy.LoadOptions{UserFile: policy.UserFile(), ConfigFile: f.config, Environ: os.Environ()})
	if err != nil {
		return "", "", fmt.Errorf("reading the policy to find the audit log (pass --file to skip): %w", err)
	}
	if u := loaded.Config.State.URL; u != "" {
		return "", u, nil
	}
	if p := loaded.Config.Audit.Path; p != "" {
		return p, "", nil
	}
	path, err = audit.DefaultPath()
	return path, "", err
}

// runFleetAudit lists (or follows) the fleet database's audit trail: every
// replica's and every hook's records.
func runFleetAudit(a *app, f *auditFlags, url string, filter audit.Filter, emit func(audit.Record) error) error {
	st, err := fleet.Open(a.ctx, url, fleet.Options{OneCall: true})
	if err != nil {
		return fmt.Errorf("[state] url: %w", err)
	}
	defer st.Close()
	q := fleet.AuditQuery{Since: filter.Since}
	each := func(r fleet.AuditRow) error {
		if !filter.Match(r.Record) {
			return nil
		}
		return emit(r.Record)
	}
	if f.follow {
		return st.FollowAudit(a.ctx, q, each)
	}
	return st.ReadAudit(a.ctx, q, each)
}

func (f *auditFlags) filter(now time.Time) (audit.Filter, error) {
	filter := audit.Filter{Tool: f.tool}
	var err error
	if f.since != "" {
		if filter.Since, err = parseSince(f.since, now); err != nil {
			return filter, err
		}
	}
	for v := range strings.SplitSeq(f.verdict, ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		verdict, err := risk.ParseVerdict(v)
		if err != nil {
			return filter, fmt.Errorf("--verdict: %w", err)
		}
		filter.Verdicts = append(filter.Verdicts, verdict)
	}
	return filter, nil
}

// parseSince reads a duration ago (Go syntax, or N followed by d for days),
// a date, or an RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (90m, 24h, 7d), a date (2026-11-21) or a time (2026-11-21T09:00:00Z)", s)
}

const auditFormat = "%-19s  %-7s  %-12s  %-12s  %-14s  %-30s  %-16s  %s"

// auditHeader is the header line of the audit table.
func auditHeader() string {
	return strings.TrimRight(fmt.Sprintf(auditFormat, "TIME (UTC)", "VERDICT", "AGENT", "SESSION", "TOOL", "RULE", "APPROVAL", "ARGS"), " ")
}

func recordPrinter(w io.Writer, asJSON bool) func(audit.Record) error {
	if asJSON {
		enc := json.NewEncoder(w)
		return func(r audit.Record) error { // logs written by older versions are masked again
			r.Args, r.Reason = audit.RedactString(r.Args), audit.RedactString(r.Reason)
			return enc.Encode(r)
		}
	}
	return func(r audit.Record) error {
		line := fmt.Sprintf(auditFormat, r.Time.UTC().Format(time.DateTime), r.Verdict, orDash(oneLine(r.Agent, 12)),
			orDash(oneLine(r.Session, 12)), r.Tool, r.Rule, approvalText(r), oneLine(audit.RedactString(r.Args), 80))
		_, err := fmt.Fprintln(w, strings.TrimRight(line, " "))
		return err
	}
}

func approvalText(r audit.Record) string {
	switch {
	case r.Approval == "" && r.Contained:
		return "contained"
	case r.Approval == "":
		return "-"
	case r.ApprovalScope != "" && r.Approval == audit.ApprovalApproved:
		return r.Approval + " " + r.ApprovalScope
	}
	return r.Approval
}

// orDash is s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine cuts s to n characters.
func oneLine(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
