package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/jobdeck/jobdeck/model"
)

// launchSpecs are the jobs to start at launch: the entries of procfile
// (when not "": named, in the Procfile's directory), then commands, the
// commands given after --. from names where each came from: its Procfile
// line ("Procfile:3"), or "" for a command. A Procfile that cannot be used
// is an error that says what to fix; then nothing is started.
func launchSpecs(procfile string, commands []string) (specs []model.Spec, from []string, err error) {
	if procfile != "" {
		if specs, from, err = readProcfile(procfile); err != nil {
			return nil, nil, err
		}
	}
	for _, c := range commands {
		specs = append(specs, model.Spec{Command: c})
		from = append(from, "")
	}
	return specs, from, nil
}

// procfileName is what a Procfile entry's name may hold (foreman's
// rule): letters, digits, '_' and '-'.
var procfileName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// readProcfile reads a Procfile: one `name: command` entry per line;
// blank lines and lines starting with # are skipped. Each entry becomes a
// spec named name, to run in the Procfile's directory; from names each
// one's line ("Procfile:3"). Errors name the file and the line, and say
// what to write instead.
func readProcfile(path string) (specs []model.Spec, from []string, err error) {
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("the Procfile %s does not exist: give the path of a file of `name: command` lines (jobdeck -f path/to/Procfile)", path)
	case err != nil:
		return nil, nil, fmt.Errorf("cannot read the Procfile %s: %v", path, err)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, nil, fmt.Errorf("find the directory of the Procfile %s: %w", path, err)
	}
	specs, from, err = parseProcfileAt(path, b)
	if err != nil {
		return nil, nil, err
	}
	for i := range specs {
		specs[i].Dir = dir
	}
	return specs, from, nil
}

// parseProcfile parses a Procfile's text (path only names it in errors).
func parseProcfile(path string, b []byte) ([]model.Spec, error) {
	specs, _, err := parseProcfileAt(path, b)
	return specs, err
}

// parseProcfileAt is parseProcfile that also names each entry's line
// ("Procfile:3").
func parseProcfileAt(path string, b []byte) (specs []model.Spec, from []string, err error) {
	seen := map[string]int{} // lower-cased name → line
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), model.MaxCommandBytes+1024)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, n)
		name, cmd, ok := strings.Cut(line, ":")
		name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
		switch {
		case !ok:
			return nil, nil, fmt.Errorf("%s: %q has no name: write the entry as `name: command`, e.g. `web: %s`", at, model.OneLine(line, 60), model.OneLine(line, 40))
		case !procfileName.MatchString(name):
			return nil, nil, fmt.Errorf("%s: %q is not a name (letters, digits, _ and - only): write the entry as `name: command`, e.g. `web: %s`",
				at, model.OneLine(name, 40), model.OneLine(cmd, 40))
		case cmd == "":
			return nil, nil, fmt.Errorf("%s: the entry %q has no command: write it after the colon, e.g. `%s: npm run dev`", at, name, name)
		}
		if _, err := model.CheckName(name); err != nil {
			// A name of digits alone: the Procfile's rule holds it, the
			// model's refuses it (it reads as a job ID).
			return nil, nil, fmt.Errorf("%s: %q reads as a job ID: give the entry a name with a letter in it (letters, digits, _ and -), e.g. `web%s: %s`", at, name, name, model.OneLine(cmd, 40))
		}
		if first, dup := seen[strings.ToLower(name)]; dup {
			return nil, nil, fmt.Errorf("%s: the name %q is used by line %d already: give each entry a name of its own", at, name, first)
		}
		seen[strings.ToLower(name)] = n
		specs = append(specs, model.Spec{Command: cmd, Name: name})
		from = append(from, at)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s:%d: %v", path, n+1, err)
	}
	if len(specs) == 0 {
		return nil, nil, fmt.Errorf("the Procfile %s has no entries: add lines such as `web: npm run dev`", path)
	}
	return specs, from, nil
}

// launchClash checks the launch's names against the jobs a session runs
// before anything starts or the console opens: a Procfile entry whose
// name (names are case-insensitive) belongs to a running job is refused,
// with its line (from, as launchSpecs names them) and the job, so
// nothing is started. list is the session's job list.
func launchClash(ctx context.Context, list func(context.Context) ([]model.Snapshot, error), specs []model.Spec, from []string) error {
	if !slices.ContainsFunc(specs, func(s model.Spec) bool { return s.Name != "" }) {
		return nil
	}
	jobs, err := list(ctx)
	if err != nil {
		return err
	}
	var clash []string
	for i, spec := range specs {
		for _, j := range jobs {
			if spec.Name == "" || !j.Live() || !strings.EqualFold(j.Name, spec.Name) {
				continue
			}
			at := "the launch"
			if i < len(from) && from[i] != "" {
				at = from[i]
			}
			clash = append(clash, fmt.Sprintf("%s: the name %q belongs to running job %s", at, spec.Name, j.Label()))
		}
	}
	if len(clash) == 0 {
		return nil
	}
	return fmt.Errorf("nothing was started: %s; stop those jobs first (/job-kill in a console of this session), rename the entries, or run jobdeck without -f to use them as they are",
		strings.Join(clash, "; "))
}
