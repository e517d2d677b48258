package budget

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toolguard/toolguard/state"
)

// SessionTotals counts the sub-agents started in each agent session, in one
// small file per session under its directory, so that the per-session total
// holds across hook processes (a [Limiter] only sees its own process). A
// SessionTotals is safe for concurrent use.
type SessionTotals struct {
	dir string
	max int
}

// NewSessionTotals returns a counter keeping its files in dir, allowing
// maxTotal sub-agents per session; zero means the default of 10.
func NewSessionTotals(dir string, maxTotal int) (*SessionTotals, error) {
	if maxTotal < 0 {
		return nil, fmt.Errorf("budget: sub-agent max_total is %d; it must be zero (default %d) or positive", maxTotal, DefaultSubAgentLimits.MaxTotal)
	}
	if maxTotal == 0 {
		maxTotal = DefaultSubAgentLimits.MaxTotal
	}
	return &SessionTotals{dir: dir, max: maxTotal}, nil
}

type sessionTotalFile struct {
	Started int `json:"started"`
}

// Take counts one more sub-agent for session and returns how many have now
// been started, or a *[LimitError] ("total") when the session already
// started the maximum (nothing is counted then). Calls without a session
// id share the "" session. A corrupt file is set aside and its error
// returned: the caller denies.
func (s *SessionTotals) Take(ctx context.Context, session string) (int, error) {
	var f sessionTotalFile
	var refused error
	err := state.UpdateJSONUnsynced(ctx, filepath.Join(s.dir, state.FileName(session)+".json"), &f, func(f *sessionTotalFile) (bool, error) {
		if f.Started >= s.max {
			refused = &LimitError{"total", fmt.Sprintf("this session already started %d sub-agents; the limit is %d", f.Started, s.max)}
			return false, nil
		}
		f.Started++
		return true, nil
	})
	if err == nil {
		err = refused
	}
	return f.Started, err
}

// SessionStarts records when each agent session's first call reached
// toolguard, in one small file per session under its directory, so that
// every hook process of the session reads the same start. The policy uses
// it to tell what the session itself made (a directory whose every entry
// was born after the start) from what was there before. A SessionStarts is
// safe for concurrent use.
type SessionStarts struct {
	dir string
}

// NewSessionStarts returns a record keeping its files in dir.
func NewSessionStarts(dir string) *SessionStarts { return &SessionStarts{dir: dir} }

type sessionStartFile struct {
	Start time.Time `json:"start"`
}

// Start returns when session's first call was seen, recording now when
// this is its first call. A call without a session id has no start (zero
// time, no error): its calls cannot be told apart from another session's.
// A corrupt file is set aside and its error returned.
func (s *SessionStarts) Start(ctx context.Context, session string, now time.Time) (time.Time, error) {
	if session == "" {
		return time.Time{}, nil
	}
	name := filepath.Join(s.dir, state.FileName(session)+".json")
	if data, err := os.ReadFile(name); err == nil {
		if t, ok := decodeStart(data); ok && !t.IsZero() {
			return t, nil // the common case: no lock, one small read
		}
	}
	var f sessionStartFile
	err := state.UpdateJSONUnsynced(ctx, name, &f, func(f *sessionStartFile) (bool, error) {
		if !f.Start.IsZero() {
			return false, nil // another process of the session recorded it first
		}
		f.Start = now
		return true, nil
	})
	if err != nil {
		return time.Time{}, err
	}
	return f.Start, nil
}

// startPrefix and startSuffix enclose the time in the file json.Marshal
// writes for a sessionStartFile (and the newline UpdateJSON adds).
const (
	startPrefix = `{"start":"`
	startSuffix = "\"}\n"
)

// decodeStart reads a session start file as json.Unmarshal into a
// sessionStartFile does, and reports whether that succeeded. A file in the
// exact shape this package writes, with a time of plain RFC 3339
// characters, is read without encoding/json: its first decode in a hook
// process builds the decoder's caches by reflection (~80 K instructions of
// a process that answers in ~4.5 M). Anything else goes through
// json.Unmarshal itself; both hand the quoted time to time.Time's
// UnmarshalJSON. FuzzDecodeStart compares the two.
func decodeStart(data []byte) (time.Time, bool) {
	if text, ok := plainStart(data); ok {
		var t time.Time
		if t.UnmarshalJSON(text) == nil {
			return t, true
		}
	}
	var f sessionStartFile
	if json.Unmarshal(data, &f) != nil {
		return time.Time{}, false
	}
	return f.Start, true
}

// plainStart returns the quoted time of data when data is exactly
// startPrefix, a time of digits, letters and "-:.+", and startSuffix (its
// newline optional).
func plainStart(data []byte) ([]byte, bool) {
	body, ok := bytes.CutPrefix(data, []byte(startPrefix))
	if !ok {
		return nil, false
	}
	if body, ok = bytes.CutSuffix(body, []byte(startSuffix)); !ok {
		if body, ok = bytes.CutSuffix(body, []byte(startSuffix[:2])); !ok {
			return nil, false
		}
	}
	for _, c := range body {
		if !timeByte(c) {
			return nil, false
		}
	}
	return data[len(startPrefix)-1 : len(startPrefix)+len(body)+1], true
}

func timeByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == ':' || c == '.' || c == '+'
}
