package fleet

import (
	"context"
	"encoding/json"
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

// Grants returns the always grants and the session's grants that carry a
// valid signature of the fleet key; others are ignored and counted
// (KindGrant).
func (g Grants) Grants(ctx context.Context, session string) ([]approval.Grant, error) {
	rows, err := query(ctx, g.s, "reading grants",
		`SELECT scope, session, grant_data, mac FROM toolguard_grants WHERE scope = 'always' OR (scope = 'session' AND session = $1 AND $1 <> '') ORDER BY id`,
		scanGrantRow, session)
	if err != nil {
		return nil, err
	}
	out := make([]approval.Grant, 0, len(rows))
	for _, r := range rows {
		if gr, ok := g.verified(r); ok {
			out = append(out, gr)
		}
	}
	return out, nil
}

// grantRow is a stored grant as signed: its scope and session columns,
// its JSON and the signature.
type grantRow struct {
	scope, session string
	data           []byte
	mac            string
}

func scanGrantRow(row pgx.CollectableRow) (grantRow, error) {
	var r grantRow
	err := row.Scan(&r.scope, &r.session, &r.data, &r.mac)
	return r, err
}

// signGrant is the signature of a grant row.
func (s *Store) signGrant(scope, session string, data []byte) (string, error) {
	return s.seal.sign(KindGrant, []byte(scope), []byte(session), data)
}

// verified decodes a grant row that carries a valid signature and agrees
// with its columns; false (and counted) otherwise.
func (g Grants) verified(r grantRow) (approval.Grant, bool) {
	var gr approval.Grant
	if !g.s.seal.valid(r.mac, KindGrant, []byte(r.scope), []byte(r.session), r.data) {
		return gr, false
	}
	if json.Unmarshal(r.data, &gr) != nil || gr.Scope.String() != r.scope || gr.Session != r.session {
		g.s.seal.reject(KindGrant)
		return gr, false
	}
	return gr, true
}

// Record remembers an approval by its scope, with who gave it and on which
// replica, signed with the fleet key; it replaces an equal grant already
// stored.
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
	mac, err := g.s.signGrant(gr.Scope.String(), gr.Session, data)
	if err != nil {
		return gr, false, err
	}
	// An equal grant already stored is replaced, so that a row written
	// without the key (whose signature is not valid) cannot hold the
	// place of a person's grant.
	err = g.s.exec(ctx, "recording a grant", `INSERT INTO toolguard_grants (scope, session, pattern, digest, grant_data, granted_by, replica, created_at, mac)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (scope, session, pattern, digest) DO UPDATE
		SET grant_data = excluded.grant_data, granted_by = excluded.granted_by, replica = excluded.replica, created_at = excluded.created_at, mac = excluded.mac`,
		gr.Scope.String(), gr.Session, gr.Pattern(), gr.Digest, string(data), orChannel(a.By), g.s.replica, gr.Created, mac)
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

// List returns the stored grants that carry a valid signature, always
// grants first, newest first within each scope; at most limit (≤ 0: 500).
func (g Grants) List(ctx context.Context, limit int) ([]StoredGrant, error) {
	if limit <= 0 {
		limit = 500
	}
	type listed struct {
		StoredGrant
		row grantRow
	}
	rows, err := query(ctx, g.s, "listing grants", `SELECT id, scope, session, grant_data, mac, pattern, granted_by, replica, created_at
		FROM toolguard_grants ORDER BY scope = 'always' DESC, id DESC LIMIT $1`,
		func(row pgx.CollectableRow) (listed, error) {
			var l listed
			err := row.Scan(&l.ID, &l.row.scope, &l.row.session, &l.row.data, &l.row.mac, &l.Pattern, &l.GrantedBy, &l.Replica, &l.Created)
			l.Created = l.Created.UTC()
			return l, err
		}, limit)
	if err != nil {
		return nil, err
	}
	out := make([]StoredGrant, 0, len(rows))
	for _, l := range rows {
		if gr, ok := g.verified(l.row); ok {
			l.Grant = gr
			out = append(out, l.StoredGrant)
		}
	}
	return out, nil
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
