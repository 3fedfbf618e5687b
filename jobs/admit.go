package jobs

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// checkSpec validates spec with model's checks and fills in defaults: the
// trimmed name, the absolute directory, and the job's grace.
func (t *Table) checkSpec(spec model.Spec) (model.Spec, time.Duration, error) {
	if err := model.CheckCommand(spec.Command); err != nil {
		return spec, 0, err
	}
	name, err := model.CheckName(spec.Name)
	if err != nil {
		return spec, 0, err
	}
	spec.Name = name
	dir, err := model.CheckDir(spec.Dir, t.opts.Dir)
	if err != nil {
		return spec, 0, err
	}
	spec.Dir = dir
	if err := model.CheckEnv(spec.Env); err != nil {
		return spec, 0, err
	}
	if !spec.Size.IsZero() {
		if err := model.CheckTermSize(spec.Size, model.ErrBadSpec); err != nil {
			return spec, 0, err
		}
	}
	grace := t.grace
	if spec.Grace != nil {
		if err := model.CheckGrace(*spec.Grace, model.ErrBadSpec); err != nil {
			return spec, 0, err
		}
		grace = *spec.Grace
	}
	return spec, grace, nil
}

// canonicalDir is dir with symbolic links resolved, or dir when that
// fails.
func canonicalDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// admit refuses a start past the running limit or of a duplicate (the
// same command in the same directory, realDir being its directory with
// symbolic links resolved). t.mu held.
func (t *Table) admit(spec model.Spec, realDir string) error {
	var live []string
	for _, j := range t.jobs {
		s := j.snapshot()
		if !s.Live() {
			continue
		}
		if spec.Name != "" && strings.EqualFold(s.Name, spec.Name) {
			return fmt.Errorf("%w: the name %q belongs to running job %s: pick another name, or stop that job first", ErrDuplicate, spec.Name, s.Label())
		}
		if s.Command == spec.Command && (s.Dir == spec.Dir || j.realDir == realDir) {
			return fmt.Errorf("%w: the same command runs in %s as job %s for %s: read that job, or stop it first",
				ErrDuplicate, s.Dir, s.Label(), model.FormatElapsed(time.Since(s.Started)))
		}
		live = append(live, fmt.Sprintf("job %s %s", s.Label(), model.OneLine(s.Command, 40)))
	}
	if len(live) >= t.opts.MaxRunning {
		return fmt.Errorf("%w: %d jobs are running, the limit: %s; stop one before starting another",
			ErrLimit, len(live), strings.Join(live, "; "))
	}
	return nil
}

// jobEnv is the environment of a job: spec.Env, or without it
// the table's (jobdeck's own), with pagers off, TERM for the job's
// transport, unbuffered Python and no git prompts; jobdeck's own markers
// are left for the supervisor to set.
func (t *Table) jobEnv(spec model.Spec) []string {
	base := t.opts.Env
	if spec.Env != nil {
		base = spec.Env
	}
	env := make([]string, 0, len(base)+6)
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PAGER", "GIT_PAGER", "TERM", "PYTHONUNBUFFERED", "GIT_TERMINAL_PROMPT", "COLUMNS", "LINES":
			continue
		}
		// jobdeck's own variables are markers and secrets (the HTTP token),
		// not the job's; JOBDECK_SESSION_DIR is the user's setting, so a
		// jobdeck the job runs finds the same sessions.
		if strings.HasPrefix(k, "JOBDECK_") && k != "JOBDECK_SESSION_DIR" {
			continue
		}
		env = append(env, kv)
	}
	term := "xterm-256color"
	if spec.NoTTY {
		term = "dumb"
	}
	return append(env, "PAGER=cat", "GIT_PAGER=cat", "TERM="+term, "PYTHONUNBUFFERED=1", "GIT_TERMINAL_PROMPT=0")
}
