package server

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

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
	s.stream(r, w, rc, sub)
}

func (s *Server) stream(r *http.Request, w io.Writer, rc *http.ResponseController, sub *Subscription) {
	beat := time.NewTicker(positive(s.opts.Heartbeat, DefaultHeartbeat))
	defer beat.Stop()
	for {
		var err error
		select {
		case <-r.Context().Done():
			return
		case <-s.hub.Done():
			return
		case <-beat.C:
			_, err = io.WriteString(w, ": heartbeat\n\n")
		case ev := <-sub.C:
			err = writeEvent(w, sub, ev)
		}
		if err != nil || rc.Flush() != nil {
			return
		}
	}
}

func writeEvent(w io.Writer, sub *Subscription, ev Event) error {
	if n := sub.Dropped(); n > 0 {
		if _, err := fmt.Fprintf(w, "event: %s\ndata: {\"count\":%d}\n\n", EventDropped, n); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Name, ev.Data)
	return err
}
