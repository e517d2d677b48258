package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

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
	var out []approval.Grant
	err := g.s.op(ctx, "reading grants", func(ctx context.Context) error {
		out = out[:0]
		rows, err := g.s.pool.Query(ctx, `SELECT grant_data FROM toolguard_grants WHERE scope = 'always' OR (scope = 'session' AND session = $1 AND $1 <> '') ORDER BY id`, session)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var data []byte
			if err := rows.Scan(&data); err != nil {
				return err
			}
			var gr approval.Grant
			if err := json.Unmarshal(data, &gr); err != nil {
				return fmt.Errorf("a stored grant does not decode: %w", err)
			}
			out = append(out, gr)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
	var out []StoredGrant
	err := g.s.op(ctx, "listing grants", func(ctx context.Context) error {
		out = out[:0]
		rows, err := g.s.pool.Query(ctx, `SELECT id, grant_data, pattern, granted_by, replica, created_at FROM toolguard_grants
			ORDER BY scope = 'always' DESC, id DESC LIMIT $1`, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var sg StoredGrant
			var data []byte
			if err := rows.Scan(&sg.ID, &data, &sg.Pattern, &sg.GrantedBy, &sg.Replica, &sg.Created); err != nil {
				return err
			}
			if err := json.Unmarshal(data, &sg.Grant); err != nil {
				return err
			}
			sg.Created = sg.Created.UTC()
			out = append(out, sg)
		}
		return rows.Err()
	})
	return out, err
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
