package cli

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/toolguard/toolguard/state"
)

// EventsFile is where commands without a terminal of their own (hook, exec,
// mcp) log the approval_* and blocked events, as JSON lines, in the state
// directory.
const EventsFile = "events.jsonl"

// eventLogger returns the structured logger for approval and blocked
// events. The file is opened only for an event, so a hook that only
// allows never touches it.
func eventLogger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(lazyAppend{}, nil))
}

// lazyAppend appends each event to the events file, opening and closing
// it every time: events are rare (asks, blocks), and a long-lived process
// (serve, mcp) must not keep a descriptor per call. When the
// file cannot be opened, events are dropped (the audit log still has
// every decision).
type lazyAppend struct{}

func (lazyAppend) Write(p []byte) (int, error) {
	dir, err := state.Dir()
	if err != nil || os.MkdirAll(dir, 0o700) != nil {
		return len(p), nil
	}
	f, err := os.OpenFile(filepath.Join(dir, EventsFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return len(p), nil
	}
	defer f.Close()
	return f.Write(p)
}
