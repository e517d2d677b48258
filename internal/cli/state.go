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
	"github.com/toolguard/toolguard/policy"
)

func init() { register("state", newStateCmd) }

type stateFlags struct {
	url    string
	config string
	json   bool
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
	loaded, err := policy.Load(policy.LoadOptions{UserFile: policy.UserFile(), ConfigFile: f.config, Environ: os.Environ()})
	if err != nil {
		return "", fmt.Errorf("reading the policy to find [state] url (pass --state to skip): %w", err)
	}
	if loaded.Config.State.URL == "" {
		return "", errors.New("no fleet database: pass --state postgres://… or set [state] url in your policy (see docs/fleet.md)")
	}
	return loaded.Config.State.URL, nil
}

// connect opens the fleet database without touching its schema.
func (f *stateFlags) connect() (*fleet.Store, error) {
	url, err := f.stateURL()
	if err != nil {
		return nil, err
	}
	return fleet.Connect(url, fleet.Options{OneCall: true})
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
