package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolguard/toolguard/approval"
)

// Grants are the fleet's session and always grants (approval.Keeper): a
// grant recorded on one replica applies on every replica, and always
// grants survive restarts.
type Grants struct{ s *Store }

var _ approval.Keeper = Grants{}

// Grants returns the Keeper of the fleet's grants.
func (s *Store) Grants() Grants { return Grants{s} }

// Grants returns the always grants and the session's grants.
func (g Grants) Grants(ctx context.Context, session string) ([]approval.Grant, error) {
	return query(ctx, g.s, "reading grants",
		`SELECT grant_data FROM toolguard_grants WHERE scope = 'always' OR (scope = 'session' AND session = $1 AND $1 <> '') ORDER BY id`,
		func(row pgx.CollectableRow) (approval.Grant, error) {
			var gr approval.Grant
			err := decodeColumn(row, &gr)
			return gr, err
		}, session)
}

// decodeColumn scans a row's one JSON column into v.
func decodeColumn(row pgx.CollectableRow, v any) error {
	var data []byte
	if err := row.Scan(&data); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("a stored record does not decode: %w", err)
	}
	return nil
}

// Record remembers an approval by its scope, with who gave it and on which
// replica; an equal grant already stored is kept as it is.
func (g Grants) Record(ctx context.Context, r approval.Request, a approval.Answer, now time.Time) (approval.Grant, bool, error) {
	if !a.Approved {
		return approval.Grant{}, false, nil
	}
	gr, ok := approval.GrantWith(r, a.Scope, a.Prefix, now)
	if !ok {
		return approval.Grant{}, false, nil
	}
	data, err := json.Marshal(gr)
	if err != nil {
		return gr, false, err
	}
	err = g.s.exec(ctx, "recording a grant", `INSERT INTO toolguard_grants (scope, session, pattern, digest, grant_data, granted_by, replica, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (scope, session, pattern, digest) DO NOTHING`,
		gr.Scope.String(), gr.Session, gr.Pattern(), gr.Digest, data, orChannel(a.By), g.s.replica, gr.Created)
	return gr, err == nil, err
}

func orChannel(by string) string {
	if by == "" {
		return "approver"
	}
	return by
}

// StoredGrant is a grant as the page lists it.
type StoredGrant struct {
	// ID identifies the grant in the database.
	ID int64 `json:"id"`
	// Grant is what it covers (Pattern) and for which session.
	Grant approval.Grant `json:"grant"`
	// Pattern is the grant as decisions name it ("Bash(npm test)").
	Pattern string `json:"pattern"`
	// GrantedBy is the channel of the person who answered ("web", …).
	GrantedBy string `json:"granted_by"`
	// Replica is the replica that recorded it.
	Replica string `json:"replica"`
	// Created is when it was made.
	Created time.Time `json:"created"`
}

// List returns the stored grants, always grants first, newest first
// within each scope; at most limit (≤ 0: 500).
func (g Grants) List(ctx context.Context, limit int) ([]StoredGrant, error) {
	if limit <= 0 {
		limit = 500
	}
	return query(ctx, g.s, "listing grants", `SELECT id, grant_data, pattern, granted_by, replica, created_at FROM toolguard_grants
		ORDER BY scope = 'always' DESC, id DESC LIMIT $1`,
		func(row pgx.CollectableRow) (StoredGrant, error) {
			var sg StoredGrant
			var data []byte
			if err := row.Scan(&sg.ID, &data, &sg.Pattern, &sg.GrantedBy, &sg.Replica, &sg.Created); err != nil {
				return sg, err
			}
			sg.Created = sg.Created.UTC()
			return sg, json.Unmarshal(data, &sg.Grant)
		}, limit)
}

// Revoke deletes the grant id; it reports whether there was one.
func (g Grants) Revoke(ctx context.Context, id int64) (bool, error) {
	var n int64
	err := g.s.op(ctx, "revoking a grant", func(ctx context.Context) error {
		tag, err := g.s.pool.Exec(ctx, `DELETE FROM toolguard_grants WHERE id = $1`, id)
		n = tag.RowsAffected()
		return err
	})
	return n > 0, err
}
