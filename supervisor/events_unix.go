//go:build unix

package supervisor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// readEvents decodes event lines into h.events until EOF, then reaps the
// supervisor and, when it never reported an empty tree, cleans up after it
// and sends EventLost. It closes h.events last.
func (h *Handle) readEvents(dec *json.Decoder, evR *os.File) {
	defer close(h.events)
	var decodeErr error
	for {
		var w wire.Event
		if err := dec.Decode(&w); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				decodeErr = err
			}
			break
		}
		ev, ok := toEvent(w)
		if !ok {
			continue
		}
		if ev.Kind == EventEmpty {
			h.empty.Store(true)
		}
		h.events <- ev
	}
	evR.Close()
	state, werr := h.waiter.wait()
	// Nobody reads the control pipe any more: release it even when the
	// caller never calls Close.
	h.ctlMu.Lock()
	if h.ctl != nil {
		h.ctl.Close()
		h.ctl = nil
	}
	h.ctlMu.Unlock()
	if h.empty.Load() {
		return
	}
	why := "the supervisor exited without reporting an empty tree"
	switch {
	case werr != nil:
		why += fmt.Sprintf(" (wait: %v)", werr)
	case state != "":
		why += " (" + state + ")"
	}
	if decodeErr != nil {
		why += fmt.Sprintf("; its events were unreadable: %v", decodeErr)
	}
	why += "; " + cleanupLost(h.session, h.job, h.cgroup)
	// The supervisor removes the job's private directory when the tree is
	// empty; it did not get there.
	removePrivateDirs(h.tmpBase, h.session, h.job)
	h.events <- Event{Kind: EventLost, Time: time.Now(), Err: why}
}

// toEvent converts an event line; ok is false for lines that are not
// events of a running job.
func toEvent(w wire.Event) (Event, bool) {
	ev := Event{Time: time.Unix(0, w.T)}
	if w.T == 0 {
		ev.Time = time.Now()
	}
	switch w.Ev {
	case wire.EvExit:
		ev.Kind = EventExit
		ev.Exit.Code, ev.Exit.Signal, ev.Exit.Core = w.Code, w.Signal, w.Core
		ev.Remaining = w.Remaining
	case wire.EvRemaining:
		ev.Kind = EventRemaining
		ev.Remaining = w.Remaining
	case wire.EvSignalled:
		ev.Kind = EventSignalled
		ev.Signal, ev.Count = w.Signal, w.Count
	case wire.EvEmpty:
		ev.Kind = EventEmpty
	case wire.EvLimit:
		ev.Kind = EventLimit
		ev.Note = w.Reason
	case wire.EvOOM:
		ev.Kind = EventOOM
		ev.Count = w.Count
	default:
		return ev, false
	}
	return ev, true
}
