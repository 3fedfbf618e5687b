package ui

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// runRaw runs the real program on pipes and returns the input writer and
// Run's result channel.
func runRaw(t *testing.T, ctx context.Context, c *fakeCore, opts Options) (io.Writer, <-chan error) {
	t.Helper()
	in, inW := io.Pipe()
	t.Cleanup(func() { inW.Close() })
	opts.KeyMap, opts.Input, opts.Output = testKeys(), in, io.Discard
	opts.Width, opts.Height = 80, 24
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, c, opts) }()
	return inW, errc
}

func waitErr(t *testing.T, errc <-chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return within 5 s")
		return nil
	}
}

// TestRunQuits drives the real program through its input: q quits an
// empty console; with a running job, q asks and y stops it, then quits.
func TestRunQuits(t *testing.T) {
	t.Parallel()
	in, errc := runRaw(t, t.Context(), newFakeCore(time.Now), Options{})
	if _, err := io.WriteString(in, "q"); err != nil {
		t.Fatal(err)
	}
	if err := waitErr(t, errc); err != nil {
		t.Fatalf("Run: %v", err)
	}

	c := newFakeCore(time.Now)
	in, errc = runRaw(t, t.Context(), c, Options{Launch: []model.Spec{{Command: "sleep 100"}}})
	deadline := time.Now().Add(5 * time.Second)
	for {
		if s, ok := c.snap(0); ok && s.Live() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the launch command never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	io.WriteString(in, "q")
	select {
	case err := <-errc:
		t.Fatalf("q with a running job quit at once (%v)", err)
	case <-time.After(200 * time.Millisecond):
	}
	io.WriteString(in, "y")
	if err := waitErr(t, errc); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if s, _ := c.snap(0); s.Live() {
		t.Fatal("quitting left the job running")
	}
}

// TestRunContext checks that ending the context ends Run with its error.
func TestRunContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	c := newFakeCore(time.Now)
	c.add(model.Snapshot{Command: "x", State: model.StateRunning, Started: time.Now()}, 0)
	_, errc := runRaw(t, ctx, c, Options{})
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := waitErr(t, errc); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel: %v, want context.Canceled", err)
	}
}
