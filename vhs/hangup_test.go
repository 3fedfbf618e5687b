//go:build unix

package vhs

import (
	"fmt"
	"testing"
)

// TestHangupEndsJobdeck hangs up the terminal of an idle console many times
// (the runner sends SIGHUP to the shell's process group at the end of a
// tape, as closing a terminal window does): every time, jobdeck must exit
// rather than be left stopped by SIGTTIN/SIGTTOU when the shell takes the
// terminal back.
func TestHangupEndsJobdeck(t *testing.T) {
	t.Parallel()
	for i := range 12 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			tp, err := ParseTape("hangup", header80x24+"Type \"jobdeck\"\nEnter\nWait+Screen /jobs/\n")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tp.Run(t.Context(), Options{PathPrepend: []string{jobdeckDir(t)}, Home: t.TempDir(), Dir: t.TempDir(), Logf: t.Logf}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
