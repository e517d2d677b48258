package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// droppedEvery is how often at most a stream says it dropped events: the
// page reloads the approvals list on each such event, so under a flood of
// decisions it must not come with every write.
const droppedEvery = time.Second

func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // a stream outlives the server's write timeout
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	sub, unsubscribe := s.hub.Subscribe()
	defer unsubscribe()
	if _, err := io.WriteString(w, "retry: 3000\n: toolguard events\n\n"); err != nil || rc.Flush() != nil {
		return
	}
	st := &stream{
		sub: sub, w: w, flush: rc.Flush,
		interval:  positive(s.opts.EventInterval, DefaultEventInterval),
		heartbeat: positive(s.opts.Heartbeat, DefaultHeartbeat),
	}
	st.run(r.Context())
}

// stream writes one subscriber's events: everything pending in one write
// and one flush, then a pause until the next tick of interval so that what
// arrives meanwhile goes out together.
type stream struct {
	sub       *Subscription
	w         io.Writer
	flush     func() error
	interval  time.Duration
	heartbeat time.Duration
	missed    uint64 // dropped events not yet reported
	reported  time.Time
	events    []*event
	buf       []byte
}

func (st *stream) run(ctx context.Context) {
	hub := st.sub.hub
	beat := time.NewTimer(st.heartbeat)
	defer beat.Stop()
	pause := time.NewTimer(0)
	defer pause.Stop()
	<-pause.C
	for {
		var wait <-chan struct{}
		var missed uint64
		st.events, missed, wait = st.sub.pending(st.events[:0])
		hub.dropped(missed)
		st.missed += missed
		if wait == nil {
			if err := st.send(); err != nil {
				return
			}
			beat.Reset(st.heartbeat)
			pause.Reset(untilNextTick(time.Now(), st.interval))
			select {
			case <-ctx.Done():
				return
			case <-hub.Done():
				return
			case <-pause.C:
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-hub.Done():
			return
		case <-wait:
		case <-beat.C:
			if _, err := io.WriteString(st.w, ": heartbeat\n\n"); err != nil || st.flush() != nil {
				return
			}
			beat.Reset(st.heartbeat)
		}
	}
}

// untilNextTick is the time from now to the next multiple of interval.
// Every stream pauses until the same ticks, so that they all send the same
// newest events, which are then encoded once: streams pausing out of step
// would each send a different window of a busy server's events, and
// between them have every event encoded.
func untilNextTick(now time.Time, interval time.Duration) time.Duration {
	return now.Truncate(interval).Add(interval).Sub(now)
}

// send writes the pending events, after a dropped event when events were
// missed and none was sent for droppedEvery.
func (st *stream) send() error {
	st.buf = st.buf[:0]
	if st.missed > 0 && time.Since(st.reported) >= droppedEvery {
		st.buf = fmt.Appendf(st.buf, "event: %s\ndata: {\"count\":%d}\n\n", EventDropped, st.missed)
		st.missed, st.reported = 0, time.Now()
	}
	for _, e := range st.events {
		st.buf = append(st.buf, e.wire()...)
	}
	clear(st.events) // let go of the events until the next batch
	if len(st.buf) == 0 {
		return nil
	}
	_, err := st.w.Write(st.buf)
	if cap(st.buf) > 1<<20 {
		st.buf = nil
	}
	if err != nil {
		return err
	}
	return st.flush()
}
