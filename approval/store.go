package approval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/toolguard/toolguard/state"
)

// GrantStore keeps grants: Session grants in one JSON file per session
// under <state dir>/grants/, Always grants as [[grants]] tables in the user
// policy file. Every change is a locked read-modify-write with an atomic
// replace, so separate hook processes of one session see each other's
// grants. A corrupt session file is set aside and reported; none of its
// grants apply (fail closed). A GrantStore is safe for concurrent use.
type GrantStore struct {
	dir        string
	policyFile func() string // resolved on first use of an always grant
	always     alwaysCache
	now        func() time.Time // nil: time.Now
}

// clock is the store's time, for whether the policy file has settled.
func (s *GrantStore) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// NewGrantStore returns a store keeping session grants under
// stateDir/grants and always grants in policyFile. An empty policyFile
// disables always grants (AddAlways fails; Always returns none).
func NewGrantStore(stateDir, policyFile string) *GrantStore {
	return &GrantStore{dir: filepath.Join(stateDir, "grants"), policyFile: func() string { return policyFile }}
}

// NewLazyGrantStore is [NewGrantStore] with the policy file found by
// policyFile when an always grant is first read or added, at most once: a
// hook process whose call needs no always grant does not look for the
// file (policy.UserFile stats up to four names).
func NewLazyGrantStore(stateDir string, policyFile func() string) *GrantStore {
	return &GrantStore{dir: filepath.Join(stateDir, "grants"), policyFile: sync.OnceValue(policyFile)}
}

// DefaultGrantStore returns the store in the default locations:
// $XDG_STATE_HOME/toolguard/grants and $XDG_CONFIG_HOME/toolguard/policy.toml.
func DefaultGrantStore() (*GrantStore, error) {
	dir, err := state.Dir()
	if err != nil {
		return nil, err
	}
	pf, err := state.UserPolicyFile()
	if err != nil {
		return nil, err
	}
	return NewGrantStore(dir, pf), nil
}

// sessionFile is the JSON stored per session.
type sessionFile struct {
	Grants []Grant `json:"grants"`
}

func (s *GrantStore) sessionPath(session string) string {
	return filepath.Join(s.dir, state.FileName(session)+".json")
}

// Session returns the grants of session; none for the empty session.
func (s *GrantStore) Session(ctx context.Context, session string) ([]Grant, error) {
	if session == "" {
		return nil, nil
	}
	var f sessionFile
	if err := state.ReadJSON(ctx, s.sessionPath(session), &f); err != nil {
		return nil, fmt.Errorf("session grants: %w", err)
	}
	return f.Grants, nil
}

// AddSession records a Session grant (g.Scope must be Session and
// g.Session set). A grant equal in tool and prefix to one already there is
// not added twice.
func (s *GrantStore) AddSession(ctx context.Context, g Grant) error {
	if g.Scope != Session || g.Session == "" {
		return fmt.Errorf("AddSession: grant %s has scope %s and session %q; want scope session and a session id", g.Pattern(), g.Scope, g.Session)
	}
	if _, err := validGrant(g, g.Pattern()); err != nil {
		return err
	}
	var f sessionFile
	return state.UpdateJSON(ctx, s.sessionPath(g.Session), &f, func(f *sessionFile) (bool, error) {
		if slices.ContainsFunc(f.Grants, func(h Grant) bool { return sameGrant(g, h) }) {
			return false, nil
		}
		f.Grants = append(f.Grants, g)
		return true, nil
	})
}

func sameGrant(a, b Grant) bool {
	return a.Pattern() == b.Pattern() && a.Digest == b.Digest && a.Session == b.Session
}

// Grants returns the always grants and the session's grants together, for
// [ApplyGrants]. When either cannot be read it returns the error and no
// grants at all, so the caller asks as if nothing had been granted.
func (s *GrantStore) Grants(ctx context.Context, session string) ([]Grant, error) {
	always, err1 := s.Always(ctx)
	sess, err2 := s.Session(ctx, session)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	return append(always, sess...), nil
}

// Record remembers an approval according to its scope: nothing for Once or
// a denial, a session grant for Session, a policy-file grant for Always. It
// returns the grant recorded and whether there was one; an answer that
// cannot be remembered (see [GrantFor]) is reported as false with no error.
func (s *GrantStore) Record(ctx context.Context, r Request, a Answer, now time.Time) (Grant, bool, error) {
	if !a.Approved {
		return Grant{}, false, nil
	}
	g, ok := GrantWith(r, a.Scope, a.Prefix, now)
	if !ok {
		return Grant{}, false, nil
	}
	var err error
	if g.Scope == Session {
		err = s.AddSession(ctx, g)
	} else {
		err = s.AddAlways(ctx, g)
	}
	return g, err == nil, err
}
