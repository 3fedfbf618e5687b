package jobs

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// TestStartEnvAndOwner: a spec's Env replaces the table's environment
// (jobdeck's markers and settings still added), the owner is recorded, and
// a stop records who asked.
func TestStartEnvAndOwner(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{Env: []string{"FROM_TABLE=1", "PATH=" + os.Getenv("PATH")}})
	r := start(t, tb, model.Spec{Command: `echo "t=$FROM_TABLE s=$FROM_SPEC pager=$PAGER"`, Owner: "console"})
	waitFor(t, 5*time.Second, "done", func() bool { return snap(t, tb, r.Job.ID).Done })
	r2 := start(t, tb, model.Spec{Command: `echo "t=$FROM_TABLE s=$FROM_SPEC pager=$PAGER"; sleep 30`, Owner: "claude", Env: []string{"FROM_SPEC=2", "PATH=" + os.Getenv("PATH")}})
	waitFor(t, 5*time.Second, "output", func() bool { return snap(t, tb, r2.Job.ID).Lines == 1 })
	for id, want := range map[model.JobID]string{r.Job.ID: "t=1 s= pager=cat", r2.Job.ID: "t= s=2 pager=cat"} {
		p, _ := tb.Read(id, model.ReadRequest{})
		if got := lineTexts(p); len(got) != 1 || got[0] != want {
			t.Errorf("job %d printed %q, want %q", id, got, want)
		}
	}
	if s := snap(t, tb, r2.Job.ID); s.Owner != "claude" || snap(t, tb, r.Job.ID).Owner != "console" {
		t.Errorf("owners: %q %q", snap(t, tb, r.Job.ID).Owner, s.Owner)
	}
	k, err := tb.Kill(t.Context(), r2.Job.ID, model.KillOptions{Grace: new(time.Duration), By: "console"})
	if err != nil || k.Job.Stop == nil || k.Job.Stop.By != "console" || k.Job.Stop.Grace != 0 {
		t.Fatalf("kill: %v %+v", err, k.Job.Stop)
	}
}

// TestCoreBounds: each bound is the core's, checked before anything runs
// or waits; errors are *model.InputError naming the field.
func TestCoreBounds(t *testing.T) {
	t.Parallel()
	if _, err := New(Options{Grace: new(model.MaxGrace + time.Second)}); !errors.Is(err, ErrBadSpec) {
		t.Errorf("New with a grace over 5 min: %v", err)
	}
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "echo hi"})
	over := model.MaxGrace + time.Second
	cases := []struct {
		name  string
		err   error
		field string
	}{
		{"spec grace", startErr(tb, model.Spec{Command: "true", Grace: &over}), model.FieldGrace},
		{"spec env", startErr(tb, model.Spec{Command: "true", Env: []string{"NOEQUALS"}}), model.FieldEnv},
		{"NUL", startErr(tb, model.Spec{Command: "a\x00"}), model.FieldCommand},
		{"long name", startErr(tb, model.Spec{Command: "true", Name: strings.Repeat("n", 65)}), model.FieldName},
		{"kill grace", killErr(tb, model.KillOptions{Grace: &over}), model.FieldGrace},
		{"until too long", statusErr(tb, model.StatusOptions{Wait: time.Second, Until: strings.Repeat("x", model.MaxPatternBytes+1)}), model.FieldUntil},
		{"until bad", statusErr(tb, model.StatusOptions{Wait: time.Second, Until: "("}), model.FieldUntil},
		{"until without wait", statusErr(tb, model.StatusOptions{Until: "x"}), model.FieldUntil},
		{"lines", statusErr(tb, model.StatusOptions{Lines: 2001}), model.FieldLines},
		{"wait", statusErr(tb, model.StatusOptions{Wait: model.MaxWait + 1}), model.FieldWait},
		{"since", statusErr(tb, model.StatusOptions{HasSince: true, Since: 99}), model.FieldSince},
	}
	for _, c := range cases {
		ie, ok := errors.AsType[*model.InputError](c.err)
		if !ok || ie.Field != c.field {
			t.Errorf("%s: %v, want an InputError for %s", c.name, c.err, c.field)
		}
	}
	if _, err := tb.Status(t.Context(), 7, model.StatusOptions{}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "the jobs are 0 to 0") {
		t.Errorf("unknown ID: %v", err)
	}
	if _, err := tb.Kill(t.Context(), -1, model.KillOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("negative ID: %v", err)
	}
}

func startErr(tb *Table, spec model.Spec) error {
	_, err := tb.Start(context.Background(), spec)
	return err
}

func killErr(tb *Table, opts model.KillOptions) error {
	_, err := tb.Kill(context.Background(), 0, opts)
	return err
}

func statusErr(tb *Table, opts model.StatusOptions) error {
	_, err := tb.Status(context.Background(), 0, opts)
	return err
}

// TestNotesReachTheSnapshot: what the supervisor could not set up (here a
// private temporary directory, with TMPDIR where none can be made) is in
// the job's snapshot and its reports, each note once; a job that lacked
// nothing has none.
func TestNotesReachTheSnapshot(t *testing.T) {
	t.Parallel()
	if got := dedupe([]string{"a", " a ", "", "b", "a"}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("dedupe = %q", got)
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("needs /proc, a directory no temporary directory can be made in")
	}
	tb := newTable(t, Options{})
	r := start(t, tb, model.Spec{Command: "echo hi", Env: append(os.Environ(), "TMPDIR=/proc")})
	n := slices.IndexFunc(r.Job.Notes, func(n string) bool { return strings.HasPrefix(n, "no private temporary directory") })
	if n < 0 || len(dedupe(r.Job.Notes)) != len(r.Job.Notes) {
		t.Fatalf("notes %q, want the missing temporary directory, once", r.Job.Notes)
	}
	if s := snap(t, tb, r.Job.ID); !slices.Equal(s.Notes, r.Job.Notes) {
		t.Errorf("snapshot notes %q, report notes %q", s.Notes, r.Job.Notes)
	}
	plain := start(t, tb, model.Spec{Command: "echo plain"})
	if slices.ContainsFunc(plain.Job.Notes, func(n string) bool { return strings.HasPrefix(n, "no private temporary directory") }) {
		t.Errorf("control: a job with a usable TMPDIR has the note: %q", plain.Job.Notes)
	}
}
