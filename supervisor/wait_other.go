//go:build unix && !linux

package supervisor

import (
	"os"
	"syscall"
)

// exitWaiter reaps one supervisor with os.Process.Wait (there are no
// pidfds here to wait through the netpoller).
type exitWaiter struct{ proc *os.Process }

// supervisorPidfd does nothing here: there are no pidfds.
func supervisorPidfd(*syscall.SysProcAttr, *int) {}

func newExitWaiter(p *os.Process, _ int) *exitWaiter { return &exitWaiter{proc: p} }

// wait reaps the supervisor and says how it ended (os.ProcessState.String).
func (w *exitWaiter) wait() (string, error) {
	st, err := w.proc.Wait()
	if st == nil {
		return "", err
	}
	return st.String(), err
}
