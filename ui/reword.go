package ui

import (
	"errors"

	"github.com/jobdeck/jobdeck/model"
)

// reword is a core error as the console shows it: the core's message
// (what is wrong and what to give instead, in no surface's words), plus
// which key or command does it here. Keys come from the key map, so the
// hint follows the user's bindings.
func (m *Model) reword(err error) string {
	msg := err.Error()
	kill := m.keys.Kill.Help().Key
	switch {
	case errors.Is(err, model.ErrLimit):
		if kill != "" {
			return msg + " (" + kill + " stops the selected job, /job-kill any job)"
		}
		return msg + " (/job-kill stops a job)"
	case errors.Is(err, model.ErrDuplicate):
		return msg + " (select it in the list to read it; /job-kill stops it)"
	case errors.Is(err, model.ErrNotFound), errors.Is(err, model.ErrAmbiguous):
		return msg + " (the list shows every job's ID and name; Tab completes them)"
	}
	return msg
}
