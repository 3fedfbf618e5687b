package ui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/model"
)

// Errors of the command palette. They are shown inline, under the text the
// user typed, which is kept.
var (
	// ErrUnknownCommand: the palette does not know the command's name.
	ErrUnknownCommand = errors.New("unknown command")
	// ErrMissingArgument: the command needs an argument.
	ErrMissingArgument = errors.New("missing argument")
)

// argKind says what a palette command takes.
type argKind uint8

const (
	argNone    argKind = iota
	argCommand         // the rest of the line is a shell command
	argJob             // a job ID or name
)

// paletteCommand is one command of the palette. short is the short form
// the palette also accepts ("kill" for job-kill, the word the footer's
// keys use); "" when there is none.
type paletteCommand struct {
	name, short, usage, help string
	arg                      argKind
}

// paletteCommands are the palette's commands, in the order help and
// completion list them.
var paletteCommands = []paletteCommand{
	{"background", "", "/background [--name NAME] <command>", "start a command as a job (named, with --name or -n)", argCommand},
	{"job-kill", "kill", "/job-kill <id|name>", "stop a job and everything it started (short: kill)", argJob},
	{"job-status", "status", "/job-status <id|name>", "show a job's full report (short: status)", argJob},
	{"job-restart", "restart", "/job-restart <id|name>", "stop a job and start its command again (short: restart)", argJob},
	{"clear", "", "/clear", "remove every finished job from the list", argNone},
	{"help", "", "/help", "show keys and commands", argNone},
	{"quit", "", "/quit", "quit (asks first when jobs run)", argNone},
}

// lookupCommand finds the palette command a typed name means: its name or
// its short form, case-insensitive.
func lookupCommand(name string) (paletteCommand, bool) {
	i := slices.IndexFunc(paletteCommands, func(c paletteCommand) bool {
		return strings.EqualFold(c.name, name) || c.short != "" && strings.EqualFold(c.short, name)
	})
	if i < 0 {
		return paletteCommand{}, false
	}
	return paletteCommands[i], true
}

// parsedCommand is a palette line taken apart.
type parsedCommand struct {
	cmd paletteCommand
	arg string
}

// parseCommand parses a palette line: an optional leading "/" or ":", a
// command name (case-insensitive), and its argument. Errors wrap
// ErrUnknownCommand or ErrMissingArgument and say what to type instead.
func parseCommand(line string) (parsedCommand, error) {
	body := strings.TrimSpace(line)
	body = strings.TrimSpace(strings.TrimLeft(body, "/:"))
	if body == "" {
		return parsedCommand{}, fmt.Errorf("%w: type a command, e.g. /background npm run dev (Tab completes, Esc closes)", ErrMissingArgument)
	}
	name, arg, _ := strings.Cut(body, " ")
	arg = strings.TrimSpace(arg)
	c, ok := lookupCommand(name)
	if !ok {
		return parsedCommand{}, fmt.Errorf("%w %q: try /background, /job-kill (kill), /job-status (status), /job-restart (restart), /clear, /help or /quit", ErrUnknownCommand, model.OneLine(name, 40))
	}
	if c.arg != argNone && arg == "" {
		what := "a job ID or name"
		if c.arg == argCommand {
			what = "a shell command"
		}
		return parsedCommand{}, fmt.Errorf("%w: %s needs %s: %s", ErrMissingArgument, c.name, what, c.usage)
	}
	return parsedCommand{cmd: c, arg: arg}, nil
}

// backgroundSpec reads /background's argument: an optional name first
// (--name NAME, -n NAME, --name=NAME), then the shell command, kept as
// typed. Errors wrap ErrMissingArgument and show the usage, or are the
// model's *InputError for a name it refuses (model.CheckName).
func backgroundSpec(arg string) (model.Spec, error) {
	flag, name, rest, _, ok := nameFlag(arg)
	if !ok {
		return model.Spec{Command: arg}, nil
	}
	if name == "" {
		if strings.Contains(arg, "=") {
			return model.Spec{}, fmt.Errorf("%w: %s= needs a name: /background --name=web npm run dev", ErrMissingArgument, flag)
		}
		return model.Spec{}, fmt.Errorf("%w: %s needs a name: /background --name web npm run dev", ErrMissingArgument, flag)
	}
	if err := quotedName(name); err != nil {
		return model.Spec{}, err
	}
	// The model's name rule, before anything starts (ARCHITECTURE.md §5:
	// one check per rule, in model).
	name, err := model.CheckName(name)
	if err != nil {
		return model.Spec{}, err
	}
	cmd := strings.TrimSpace(rest)
	if cmd == "" {
		return model.Spec{}, fmt.Errorf("%w: background --name %s needs a shell command after the name: /background --name %s npm run dev", ErrMissingArgument, name, name)
	}
	return model.Spec{Command: cmd, Name: name}, nil
}

// nameFlag splits a /background argument that starts with --name or -n
// (NAME after a space or an =): the flag, the name, the rest after it,
// and whether the name is complete (a space follows it). ok is false
// without the flag.
func nameFlag(arg string) (flag, name, rest string, complete, ok bool) {
	word, after, spaced := strings.Cut(arg, " ")
	switch {
	case word == "--name" || word == "-n":
		name, rest, complete = strings.Cut(strings.TrimLeft(after, " "), " ")
		return word, name, rest, complete, true
	case strings.HasPrefix(word, "--name=") || strings.HasPrefix(word, "-n="):
		flag, name, _ = strings.Cut(word, "=")
		return flag, name, after, spaced, true
	}
	return "", "", "", false, false
}

// nameProblem is what is wrong with the name a /background line being
// typed gives, in the model's words (model.CheckName), once the name is
// complete; "" while nothing is.
func nameProblem(line string) string {
	body := strings.TrimLeft(line, "/:")
	cmd, arg, has := strings.Cut(body, " ")
	if !has || !strings.EqualFold(cmd, "background") {
		return ""
	}
	_, name, _, complete, ok := nameFlag(strings.TrimLeft(arg, " "))
	if !ok || !complete || name == "" {
		return ""
	}
	if err := quotedName(name); err != nil {
		return err.Error()
	}
	if _, err := model.CheckName(name); err != nil {
		return err.Error()
	}
	return ""
}

// quotedName refuses a palette name with a quote in it: the palette reads
// the name as the one word after --name, so quotes would not group words
// (-n 'two words' named a job "'two" and ran "words' …").
func quotedName(name string) error {
	if strings.ContainsAny(name, `'"`) {
		return fmt.Errorf("%w: the name after --name is one word, and quotes do not group words here: write it without quotes (/background --name dev-server npm run dev)", ErrMissingArgument)
	}
	return nil
}

// completions returns what Tab can complete the palette line to: command
// names (and short forms) while the first word is typed, then job IDs and
// names for the commands that take a job. prefix is the part of line the candidates
// replace the rest of.
func completions(line string, jobs []model.Snapshot) (prefix string, cands []string, isCommand bool) {
	lead := len(line) - len(strings.TrimLeft(line, "/:"))
	body := line[lead:]
	name, arg, hasArg := strings.Cut(body, " ")
	if !hasArg {
		low := strings.ToLower(name)
		for _, c := range paletteCommands {
			if strings.HasPrefix(c.name, low) {
				cands = append(cands, c.name)
			}
		}
		for _, c := range paletteCommands {
			if c.short != "" && low != "" && strings.HasPrefix(c.short, low) {
				cands = append(cands, c.short)
			}
		}
		return line[:lead], cands, true
	}
	if c, ok := lookupCommand(name); !ok || c.arg != argJob {
		return "", nil, false
	}
	arg = strings.TrimLeft(arg, " ")
	prefix = line[:len(line)-len(arg)]
	low := strings.ToLower(arg)
	seen := map[string]bool{}
	for _, s := range jobs {
		for _, c := range []string{strconv.Itoa(int(s.ID)), s.Name} {
			if c != "" && !seen[c] && strings.HasPrefix(strings.ToLower(c), low) {
				seen[c] = true
				cands = append(cands, c)
			}
		}
	}
	return prefix, cands, false
}

// commonPrefix returns the longest common prefix of ss (case-sensitive).
func commonPrefix(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	for !utf8.ValidString(p) {
		p = p[:len(p)-1]
	}
	return p
}
