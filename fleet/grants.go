package fleet

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
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
//
// A replica whose board listens remembers that a session has none (see
// grantCache): a read that found nothing is answered again from memory
// until the grants change, without a query. A read that found grants is
// never remembered, so that a revoked grant stops applying at once.
func (g Grants) Grants(ctx context.Context, session string) ([]approval.Grant, error) {
	c := &g.s.grantCache
	if !g.s.down.Load() && c.none(session, time.Now()) {
		return []approval.Grant{}, nil
	}
	gen, listening := c.generation()
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
	if len(out) == 0 && listening {
		c.remember(session, gen, time.Now())
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
	g.s.grantCache.forget() // here at once; the other replicas on the notification
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
	g.s.grantCache.forget()
	return n > 0, err
}

// grantCache remembers the sessions for which the fleet holds no valid
// grant (and no always grant), so that the asks of a session without
// grants cost no query. It is safe because of what it keeps and when:
//
//   - only the absence of grants is kept: a stale entry can make a call
//     ask that a grant made a moment ago would allow, never allow a call
//     that a revoked grant allowed (a read that finds grants always goes
//     to the database);
//   - entries are kept only while the board's listener is connected and
//     listening on toolguard_grants, which a trigger notifies at the
//     commit of every statement that changes the grants (migration 3),
//     whoever runs it; a notification, a grant recorded or revoked here,
//     and the listener's loss or reconnection forget every entry;
//   - a read stores its entry only if nothing was forgotten since it
//     started (the generation is unchanged), so a read that raced a new
//     grant cannot store what it saw before it;
//   - an entry is kept at most grantCacheAge, in case the notifications
//     stopped without the connection failing (the trigger dropped).
type grantCache struct {
	mu        sync.Mutex
	gen       uint64               // counts forgets
	listening bool                 // the board listens on chanGrants
	empty     map[string]time.Time // session → when it was read without grants
	hits      atomic.Int64         // reads answered from memory
}

const (
	// grantCacheAge bounds how long a session is remembered without grants.
	grantCacheAge = 10 * time.Second
	// grantCacheSize bounds the sessions remembered; when full, all are
	// forgotten.
	grantCacheSize = 4096
)

// none reports whether session is remembered to have no grants at now.
func (c *grantCache) none(session string, now time.Time) bool {
	c.mu.Lock()
	at, ok := c.empty[session]
	c.mu.Unlock()
	if !ok || now.Sub(at) > grantCacheAge || now.Before(at) {
		return false
	}
	c.hits.Add(1)
	return true
}

// generation is the current generation, and whether entries may be kept.
func (c *grantCache) generation() (uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen, c.listening
}

// remember keeps that session had no grants in a read that started at
// generation gen, unless something was forgotten since.
func (c *grantCache) remember(session string, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.listening || gen != c.gen {
		return
	}
	if c.empty == nil || len(c.empty) >= grantCacheSize {
		c.empty = map[string]time.Time{}
	}
	c.empty[session] = now
}

// forget drops every entry: the grants may have changed.
func (c *grantCache) forget() {
	c.mu.Lock()
	c.gen++
	clear(c.empty)
	c.mu.Unlock()
}

// listen forgets every entry and records whether the board now listens
// for changes of the grants.
func (c *grantCache) listen(on bool) {
	c.mu.Lock()
	c.gen++
	clear(c.empty)
	c.listening = on
	c.mu.Unlock()
}
