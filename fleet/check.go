package fleet

import (
	"context"
	"time"
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
	return r
}
