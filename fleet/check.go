package fleet

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Report is the state of the fleet database as `toolguard state check`
// shows it.
type Report struct {
	// Database names it without its password.
	Database string `json:"database"`
	// Reachable is false when no connection could be made; Error says why.
	Reachable bool   `json:"reachable"`
	Error     string `json:"error,omitempty"`
	// RoundTrip is one query's round trip.
	RoundTrip time.Duration `json:"round_trip_ns"`
	// ServerVersion is PostgreSQL's version string.
	ServerVersion string `json:"server_version,omitempty"`
	// Schema is the database's schema version; Want is this binary's.
	Schema int `json:"schema_version"`
	Want   int `json:"binary_schema_version"`
	// ClockOffset is the database's clock minus this machine's (budgets
	// use the deciding replica's clock).
	ClockOffset time.Duration `json:"clock_offset_ns"`
	// ReplicationLag is how far a standby's replay is behind; zero on a
	// primary (Standby false).
	Standby        bool          `json:"standby"`
	ReplicationLag time.Duration `json:"replication_lag_ns"`
	// NotifyQueue is the fraction of the notification queue in use
	// (pg_notification_queue_usage): near 1, a stuck listener holds it.
	NotifyQueue float64 `json:"notify_queue_usage"`
	// Replicas are the serve replicas that sent a heartbeat, newest first.
	Replicas []ReplicaInfo `json:"replicas"`
	// PendingApprovals is how many approvals wait; AuditRecords how many
	// records the trail holds (an estimate for a large table).
	PendingApprovals int   `json:"pending_approvals"`
	AuditRecords     int64 `json:"audit_records"`
	// Unsigned counts the rows without a valid signature of the fleet key.
	Unsigned UnsignedRows `json:"unsigned"`
	// NoPassword is true when the database let this machine in as the
	// URL's user with neither a password nor a client certificate (trust
	// authentication, or peer on a local socket): any program here, an
	// agent's included, can connect.
	NoPassword bool `json:"accepts_without_password"`
	// TrustRules are the pg_hba.conf rules that let clients in without
	// credentials (trust), when the role may read them (a superuser); nil
	// otherwise.
	TrustRules []string `json:"trust_rules,omitempty"`
}

// UnsignedRows counts the rows that do not carry a valid signature of the
// fleet key: written by something that does not hold it (an agent that
// reached the database, a replica given another key file, a version
// before signatures). They count for nothing.
type UnsignedRows struct {
	// Verified is false when check had no key to verify with (then the
	// counts are zero).
	Verified bool `json:"verified"`
	// Grants among all grants.
	Grants int `json:"grants"`
	// Cards among the pending approvals.
	Cards int `json:"cards"`
	// Answers among the approvals answered in the last week.
	Answers int `json:"answers"`
}

// ReplicaInfo is one replica's last heartbeat.
type ReplicaInfo struct {
	ID          string        `json:"id"`
	Host        string        `json:"host"`
	PID         int           `json:"pid"`
	PolicyHash  string        `json:"policy_hash"`
	Subscribers int           `json:"subscribers"`
	Started     time.Time     `json:"started"`
	SeenAgo     time.Duration `json:"seen_ago_ns"`
	// Live is true when the heartbeat is within the lease.
	Live bool `json:"live"`
}

// Check reports connectivity, schema version, lag and the replicas. A
// database that cannot be reached is a Report with Reachable false, not
// an error.
func (s *Store) Check(ctx context.Context) Report {
	r := Report{Database: s.where, Want: SchemaVersion()}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	start := time.Now()
	var dbNow time.Time
	if err := s.pool.QueryRow(ctx, `SELECT now()`).Scan(&dbNow); err != nil {
		r.Error = err.Error()
		return r
	}
	r.Reachable, r.RoundTrip = true, time.Since(start)
	r.ClockOffset = dbNow.Sub(start.Add(r.RoundTrip / 2))
	var lag float64
	_ = s.pool.QueryRow(ctx, `SELECT version(), pg_is_in_recovery(), coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)::float8, pg_notification_queue_usage()`).
		Scan(&r.ServerVersion, &r.Standby, &lag, &r.NotifyQueue)
	if r.Standby {
		r.ReplicationLag = time.Duration(lag * float64(time.Second))
	}
	r.Schema, _ = s.Version(ctx)
	if r.Schema == 0 {
		return r
	}
	rows, err := s.pool.Query(ctx, `SELECT id, host, pid, policy_hash, subscribers, started_at, extract(epoch FROM now() - seen_at)::float8
		FROM toolguard_replicas ORDER BY seen_at DESC`)
	if err == nil {
		for rows.Next() {
			var ri ReplicaInfo
			var ago float64
			if rows.Scan(&ri.ID, &ri.Host, &ri.PID, &ri.PolicyHash, &ri.Subscribers, &ri.Started, &ago) == nil {
				ri.SeenAgo = time.Duration(ago * float64(time.Second))
				ri.Live = ri.SeenAgo <= s.lease
				ri.Started = ri.Started.UTC()
				r.Replicas = append(r.Replicas, ri)
			}
		}
		rows.Close()
	}
	_ = s.pool.QueryRow(ctx, `SELECT count(*) FROM toolguard_approvals WHERE status = 'pending' AND lease_until > now()`).Scan(&r.PendingApprovals)
	_ = s.pool.QueryRow(ctx, `SELECT CASE WHEN c.reltuples > 100000 THEN c.reltuples::bigint ELSE (SELECT count(*) FROM toolguard_audit) END
		FROM pg_class c WHERE c.relname = 'toolguard_audit'`).Scan(&r.AuditRecords)
	if r.Schema >= 2 {
		r.Unsigned = s.unsigned(ctx)
	}
	r.NoPassword = s.acceptsWithoutPassword(ctx)
	r.TrustRules = s.trustRules(ctx)
	return r
}

// unsigned counts the rows without a valid signature of the fleet key.
func (s *Store) unsigned(ctx context.Context) UnsignedRows {
	u := UnsignedRows{Verified: s.seal.key != nil}
	if !u.Verified {
		return u
	}
	if rows, err := s.pool.Query(ctx, `SELECT scope, session, grant_data, mac FROM toolguard_grants`); err == nil {
		grants, _ := pgx.CollectRows(rows, scanGrantRow)
		for _, g := range grants {
			if !s.seal.check(g.mac, KindGrant, []byte(g.scope), []byte(g.session), g.data) {
				u.Grants++
			}
		}
	}
	if rows, err := s.pool.Query(ctx, `SELECT id, owner, listed, listed_mac FROM toolguard_approvals WHERE status = 'pending'`); err == nil {
		cards, _ := pgx.CollectRows(rows, scanCard)
		for _, c := range cards {
			if !s.seal.check(c.mac, KindCard, []byte(c.id), []byte(c.owner), c.listed) {
				u.Cards++
			}
		}
	}
	if rows, err := s.pool.Query(ctx, `SELECT id, owner, status, answer, answer_mac FROM toolguard_approvals
		WHERE status IN ('answered', 'approved', 'denied') AND coalesce(resolved_at, created_at) > now() - interval '7 days'`); err == nil {
		answers, _ := pgx.CollectRows(rows, scanStored)
		for _, a := range answers {
			if !s.seal.check(a.answerMAC, KindAnswer, []byte(a.id), a.answer) {
				u.Answers++
			}
		}
	}
	return u
}

// acceptsWithoutPassword connects once more as the URL's user with no
// password, no password file and no client certificate: when the database
// lets that in, it lets in any program on this machine.
func (s *Store) acceptsWithoutPassword(ctx context.Context) bool {
	cfg, err := pgx.ParseConfig(s.url)
	if err != nil {
		return false
	}
	cfg.Password = ""
	cfg.ConnectTimeout = 3 * time.Second
	if cfg.TLSConfig != nil {
		cfg.TLSConfig.Certificates, cfg.TLSConfig.GetClientCertificate = nil, nil
	}
	for _, fb := range cfg.Fallbacks {
		if fb.TLSConfig != nil {
			fb.TLSConfig.Certificates, fb.TLSConfig.GetClientCertificate = nil, nil
		}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false
	}
	_ = conn.Close(ctx)
	return true
}

// trustRules lists the pg_hba.conf rules with trust authentication, when
// the role may read them.
func (s *Store) trustRules(ctx context.Context) []string {
	rows, err := s.pool.Query(ctx, `SELECT line_number, type, array_to_string(database, ','), array_to_string(user_name, ','),
		coalesce(address, ''), coalesce(netmask, '') FROM pg_hba_file_rules WHERE auth_method = 'trust' ORDER BY line_number`)
	if err != nil {
		return nil
	}
	var out []string
	for rows.Next() {
		var line int
		var typ, db, user, addr, mask string
		if rows.Scan(&line, &typ, &db, &user, &addr, &mask) != nil {
			continue
		}
		rule := fmt.Sprintf("line %d: %s %s %s", line, typ, db, user)
		if addr != "" {
			rule += " " + addr
			if mask != "" {
				rule += "/" + mask
			}
		}
		out = append(out, rule+" trust")
	}
	return out
}
