//go:build unix

package serve

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/serve/stdio"
)

// await waits until the answer to id has come, by the deadline, and
// reports whether it did.
func (r *rawServe) await(id float64, deadline time.Time) bool {
	for r.got[id] == nil {
		select {
		case m, ok := <-r.answers:
			if !ok {
				return false
			}
			r.got[m["id"]] = m
		case <-time.After(time.Until(deadline)):
			return false
		}
	}
	return true
}

// TestEndToEndEOFWithCallsHeld: with more calls than the filter passes
// on at once (16) waiting when the input ends, the end is still seen (the
// filter reads on past the 17th call): the waits are cut short 30 s after
// it, not run their whole 600 s, the calls held beyond the 16 are
// answered as room frees, and jobdeck exits.
func TestEndToEndEOFWithCallsHeld(t *testing.T) {
	t.Parallel()
	r := startRawServe(t, "--private", "--grace", "0")
	t.Cleanup(func() {
		// A failed run leaves jobdeck waiting: stop it and its job.
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Signal(syscall.SIGTERM)
			waitExit(t, r.cmd, 20*time.Second)
		}
	})
	mark := marker(t)
	r.call(1, toolBackground, fmt.Sprintf(`{"command":"export %s; sleep 1000"}`, mark))
	r.answer(1, 20*time.Second)
	const waits = 22
	for id := 2; id < 2+waits; id++ {
		r.call(id, toolStatus, `{"id":0,"wait":600}`)
	}
	const ping = 2 + waits
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, ping))
	r.stdin.Close()
	ended := time.Now()
	// 30 s of drain, then every answer at once; the margin is for a
	// loaded machine.
	deadline := ended.Add(stdio.DrainTimeout + testtimeout.Scale(30*time.Second))
	for id := 2; id <= ping; id++ {
		if !r.await(float64(id), deadline) {
			t.Fatalf("no answer to %d within %v of the input's end (%d answers in all)", id, time.Until(deadline)+time.Since(ended), len(r.got))
		}
	}
	for id := 2; id < ping; id++ {
		if text, _ := r.answer(float64(id), time.Second); !strings.Contains(text, "the session is ending (the client's input ended)") {
			t.Errorf("job_status %d, a wait cut short at EOF:\n%s", id, text)
		}
	}
	if code := waitExit(t, r.cmd, time.Until(deadline)+10*time.Second); code != 0 {
		t.Errorf("exit code %d", code)
	}
	t.Logf("every call answered and jobdeck gone %v after the input ended", time.Since(ended).Round(time.Millisecond))
	checkNoLeftovers(t, mark)
}

// TestEndToEndSIGTERMAnswersHeldCalls: a call still held when jobdeck
// --serve --private is told to exit gets an answer that says so (an
// error, or its wait cut short), not silence.
func TestEndToEndSIGTERMAnswersHeldCalls(t *testing.T) {
	t.Parallel()
	r := startRawServe(t, "--private", "--grace", "0")
	mark := marker(t)
	r.call(1, toolBackground, fmt.Sprintf(`{"command":"export %s; sleep 1000"}`, mark))
	r.answer(1, 20*time.Second)
	r.call(2, toolStatus, `{"id":0,"wait":60}`)
	// The ping is read after the wait: once it is answered, the wait is
	// being held.
	r.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if !r.await(3, time.Now().Add(testtimeout.Scale(10*time.Second))) {
		t.Fatal("no answer to the ping")
	}
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if !r.await(2, time.Now().Add(testtimeout.Scale(20*time.Second))) {
		t.Fatal("the held call got no answer after SIGTERM")
	}
	// Either the handler's wait, cut short, answered first (its result
	// says why), or the server answered the call as it closed.
	e, _ := r.got[float64(2)]["error"].(map[string]any)
	if msg, _ := e["message"].(string); !strings.Contains(msg, "shutting down") {
		if text, _ := r.answer(2, time.Second); !strings.Contains(text, "\nwait: cut short ") {
			t.Errorf("the held call's answer: %v", r.got[float64(2)])
		}
	}
	if code := waitExit(t, r.cmd, testtimeout.Scale(20*time.Second)); code != 0 {
		t.Errorf("exit code %d", code)
	}
	checkNoLeftovers(t, mark)
}
