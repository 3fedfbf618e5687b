package present

import (
	"strconv"

	"github.com/jobdeck/jobdeck/model"
)

// NoOutput is what an empty pane says: "(no output yet)" while the job
// may still print, "(no output)" once it cannot.
func NoOutput(live bool) string {
	if live {
		return "(no output yet)"
	}
	return "(no output)"
}

// PaneNote is the note on a pane's bottom edge: "paused · 17 newer · End
// follows" while scrolled up (newer complete lines below the window),
// "paused · evicted from the ring · …" when the ring has evicted lines the
// paused pane was on (evicted), "zoomed · z restores" while zoomed, or "";
// with wrap, "wrap · " comes first ("wrap" alone when nothing else is said).
func PaneNote(paused, evicted bool, newer uint64, zoomed, wrap bool) string {
	var note string
	gone := ""
	if evicted {
		gone = "evicted from the ring · "
	}
	switch {
	case paused && newer > 0:
		note = "paused · " + gone + strconv.FormatUint(newer, 10) + " newer · End follows"
	case paused:
		note = "paused · " + gone + "End follows"
	case zoomed:
		note = "zoomed · z restores"
	}
	switch {
	case wrap && note != "":
		return "wrap · " + note
	case wrap:
		return "wrap"
	}
	return note
}

// ShortStatus is a compact status for narrow lists: "running", "exit 1",
// "SIGTERM", "exit 0, 2 still running", "failed".
func ShortStatus(s model.Snapshot) string {
	var st string
	switch {
	case s.State == model.StateFailed:
		return "failed"
	case s.Exit == nil:
		return s.State.String()
	case s.Exit.Signaled():
		st = model.SignalName(s.Exit.Signal)
	default:
		st = "exit " + strconv.Itoa(s.Exit.Code)
	}
	if s.Remaining > 0 {
		st += ", " + strconv.Itoa(s.Remaining) + " still running"
	}
	return st
}

// OwnerTag marks, in the job list, a job someone other than self started:
// "[claude-code]" before its command; "" for self's own jobs and jobs of
// no known owner.
func OwnerTag(owner, self string) string {
	if owner == "" || owner == self {
		return ""
	}
	return "[" + model.OneLine(owner, 24) + "]"
}
