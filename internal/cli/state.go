package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/state"
)

func init() { register("state", newStateCmd) }

type stateFlags struct {
	url     string
	config  string
	json    bool
	keyFile string // the fleet key file check tried
}

func newStateCmd(a *app) *cobra.Command {
	f := &stateFlags{}
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Manage the fleet database ([state] url)",
		Long: `Manage the PostgreSQL database a fleet of toolguard serve replicas and
hooks share (see docs/fleet.md). The database is the --state URL, else the
policy's [state] url (user file, --config, TOOLGUARD_STATE__URL).

  toolguard state migrate   apply the schema migrations this binary carries
  toolguard state check     connectivity, schema version, lag and replicas

serve applies missing migrations itself when it starts; migrate lets an
operator do it first, with a role that may change the schema.`,
		Args: cobra.NoArgs,
	}
	fl := cmd.PersistentFlags()
	fl.StringVar(&f.url, "state", "", "the fleet database URL (default: the policy's [state] url)")
	fl.StringVar(&f.config, "config", os.Getenv("TOOLGUARD_CONFIG"), "policy file that may set [state] url")
	fl.BoolVar(&f.json, "json", false, "print JSON")
	cmd.AddCommand(&cobra.Command{
		Use: "migrate", Short: "Apply the schema migrations the database lacks", Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runStateMigrate(a, f) },
	}, &cobra.Command{
		Use: "check", Short: "Report connectivity, schema version, lag and replicas", Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runStateCheck(a, f) },
	})
	return cmd
}

// stateURL is --state, else the policy's [state] url.
func (f *stateFlags) stateURL() (string, error) {
	if f.url != "" {
		return f.url, nil
	}
	loaded, err := f.policy()
	if err != nil {
		return "", fmt.Errorf("reading the policy to find [state] url (pass --state to skip): %w", err)
	}
	if loaded.Config.State.URL == "" {
		return "", errors.New("no fleet database: pass --state postgres://… or set [state] url in your policy (see docs/fleet.md)")
	}
	return loaded.Config.State.URL, nil
}

func (f *stateFlags) policy() (*policy.Loaded, error) {
	return policy.Load(policy.LoadOptions{UserFile: policy.UserFile(), ConfigFile: f.config, Environ: os.Environ()})
}

// connect opens the fleet database without touching its schema, with the
// fleet key when its file can be read (check verifies signatures with it).
func (f *stateFlags) connect() (*fleet.Store, error) {
	url, err := f.stateURL()
	if err != nil {
		return nil, err
	}
	return fleet.Connect(url, fleet.Options{OneCall: true, Key: f.key()})
}

// key reads the fleet key of the policy's [state] key_file (or the
// default file) without creating it; nil when it cannot be read.
func (f *stateFlags) key() []byte {
	f.keyFile = ""
	loaded, err := f.policy()
	if err != nil {
		return nil
	}
	dir, err := state.Dir()
	if err != nil {
		return nil
	}
	f.keyFile = guard.FleetKeyFile(loaded.Config.State, dir)
	key, err := state.ReadSecret(f.keyFile)
	if err != nil {
		return nil
	}
	return []byte(key)
}

func runStateMigrate(a *app, f *stateFlags) error {
	st, err := f.connect()
	if err != nil {
		return err
	}
	defer st.Close()
	applied, err := st.Migrate(a.ctx)
	for _, m := range applied {
		fmt.Fprintf(a.io.Stdout, "applied %s\n", m.Name)
	}
	if err != nil {
		return err
	}
	v, err := st.Version(a.ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.io.Stdout, "%s: schema version %d (this toolguard's: %d)\n", st.Where(), v, fleet.SchemaVersion())
	return nil
}

func runStateCheck(a *app, f *stateFlags) error {
	st, err := f.connect()
	if err != nil {
		return err
	}
	defer st.Close()
	r := st.Check(a.ctx)
	if f.json {
		enc := json.NewEncoder(a.io.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		printReport(a, r)
		printSecurity(a, r, f.keyFile)
	}
	return reportProblem(r)
}

func printReport(a *app, r fleet.Report) {
	w := a.io.Stdout
	fmt.Fprintf(w, "database:          %s\n", r.Database)
	if !r.Reachable {
		fmt.Fprintf(w, "connectivity:      unreachable: %s\n", r.Error)
		return
	}
	fmt.Fprintf(w, "connectivity:      ok, round trip %s\n", r.RoundTrip.Round(10*time.Microsecond))
	fmt.Fprintf(w, "server:            %s\n", firstWords(r.ServerVersion, 2))
	fmt.Fprintf(w, "schema:            version %d (this toolguard: %d)%s\n", r.Schema, r.Want, schemaNote(r))
	fmt.Fprintf(w, "clock offset:      %s (database minus this machine)\n", r.ClockOffset.Round(time.Millisecond))
	if r.Standby {
		fmt.Fprintf(w, "replication lag:   %s (a standby: serve needs the primary)\n", r.ReplicationLag.Round(time.Millisecond))
	} else {
		fmt.Fprintln(w, "replication lag:   none (primary)")
	}
	fmt.Fprintf(w, "notify queue:      %.1f%% used\n", 100*r.NotifyQueue)
	fmt.Fprintf(w, "pending approvals: %d\n", r.PendingApprovals)
	fmt.Fprintf(w, "audit records:     %d\n", r.AuditRecords)
	fmt.Fprintf(w, "replicas:          %d\n", len(r.Replicas))
	for _, ri := range r.Replicas {
		state := "live"
		if !ri.Live {
			state = "gone"
		}
		fmt.Fprintf(w, "  %-28s %-4s seen %s ago, policy %s, %d page(s) open\n", ri.ID, state, ri.SeenAgo.Round(100*time.Millisecond), shortHash(ri.PolicyHash), ri.Subscribers)
	}
	if hashes := distinctLiveHashes(r); len(hashes) > 1 {
		fmt.Fprintf(w, "warning: the live replicas enforce %d different policies: %s\n", len(hashes), strings.Join(hashes, ", "))
	}
}

// printSecurity reports what anyone who reaches the database could write
// and whether the database lets them in without credentials.
func printSecurity(a *app, r fleet.Report, keyFile string) {
	if !r.Reachable {
		return
	}
	w := a.io.Stdout
	switch u := r.Unsigned; {
	case !u.Verified:
		fmt.Fprintf(w, "signatures:        not checked: no fleet key could be read from %s\n", orUnknown(keyFile))
	case u.Grants+u.Cards+u.Answers == 0:
		fmt.Fprintln(w, "signatures:        every grant, pending card and recent answer is signed with the fleet key")
	default:
		fmt.Fprintf(w, "warning: rows without a valid signature of the fleet key, which count for nothing: %d grant(s), %d pending card(s), %d answer(s). "+
			"Something that does not hold the key wrote them: an agent that reached the database, a replica or hook given another key file, or a toolguard before signatures (re-approve those grants).\n",
			u.Grants, u.Cards, u.Answers)
	}
	if r.NoPassword {
		fmt.Fprintln(w, "warning: the database let this machine in without a password or client certificate (trust or peer authentication): "+
			"any program here, an agent's included, can connect to it. What such a program writes counts for nothing without the fleet key, "+
			"but it can read pending approvals, delete rows and stop approvals and audit records. Require scram-sha-256 or cert for these hosts "+
			"in pg_hba.conf and keep the credentials out of the agents' reach (see docs/fleet.md, Security).")
	}
	for _, rule := range r.TrustRules {
		fmt.Fprintf(w, "warning: pg_hba.conf lets clients in without credentials: %s\n", rule)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "the policy's [state] key_file (the policy could not be read)"
	}
	return s
}

func schemaNote(r fleet.Report) string {
	switch {
	case r.Schema < r.Want:
		return ": behind, run toolguard state migrate"
	case r.Schema > r.Want:
		return ": newer than this toolguard, upgrade it"
	}
	return ": current"
}

// reportProblem is the exit status of check: an error when the database
// cannot be reached or its schema does not match.
func reportProblem(r fleet.Report) error {
	switch {
	case !r.Reachable:
		return &ExitCodeError{Code: 1, Err: fmt.Errorf("the fleet database %s cannot be reached: %s", r.Database, r.Error)}
	case r.Schema != r.Want:
		return &ExitCodeError{Code: 1, Err: fmt.Errorf("the fleet database has schema version %d, this toolguard needs %d%s", r.Schema, r.Want, schemaNote(r))}
	}
	return nil
}

func distinctLiveHashes(r fleet.Report) []string {
	var out []string
	for _, ri := range r.Replicas {
		if ri.Live && ri.PolicyHash != "" && !slices.Contains(out, shortHash(ri.PolicyHash)) {
			out = append(out, shortHash(ri.PolicyHash))
		}
	}
	return out
}

func shortHash(h string) string {
	if len(h) > 19 {
		return h[:19]
	}
	if h == "" {
		return "-"
	}
	return h
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}
