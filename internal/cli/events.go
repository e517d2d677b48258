package cli

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/toolguard/toolguard/state"
)

// EventsFile is where commands without a terminal of their own (hook, exec,
// mcp) log the approval_* and blocked events, as JSON lines, in the state
// directory.
const EventsFile = "events.jsonl"

// eventLogger returns the structured logger for approval and blocked
// events. The file is opened on the first event, so a hook that only
// allows never touches it.
func eventLogger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(&lazyAppend{}, nil))
}

// lazyAppend opens the events file for appending on first write; when it
// cannot, events are dropped (the audit log still has every decision).
type lazyAppend struct {
	once sync.Once
	f    *os.File
}

func (l *lazyAppend) Write(p []byte) (int, error) {
	l.once.Do(func() {
		dir, err := state.Dir()
		if err != nil || os.MkdirAll(dir, 0o700) != nil {
			return
		}
		l.f, _ = os.OpenFile(filepath.Join(dir, EventsFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	})
	if l.f == nil {
		return len(p), nil
	}
	return l.f.Write(p)
}
