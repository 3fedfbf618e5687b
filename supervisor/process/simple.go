package process

import (
	"regexp"
	"strings"
)

// A command that is one simple command (words, assignments before them,
// plain redirections; no pipeline, list, compound command, substitution or
// expansion in the command's name) runs as the leader itself: the wrapper
// does its set-up, then bash execs the command (see wrapperExec), so the
// job's exit status is the command's own, signal deaths included ("killed
// by SIGSEGV"). Deciding this is parsing bash, so the parser below is
// conservative: anything it does not fully understand is not simple, and
// then bash evaluates the command as before. The wrapper also checks, at
// run time, that the name is a program (not a builtin or a function).

// reserved are bash's reserved words (and [[ ]] (( ))): a command that
// starts with one is compound.
var reserved = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
	"for": true, "select": true, "while": true, "until": true, "do": true, "done": true, "in": true,
	"function": true, "time": true, "coproc": true, "{": true, "}": true, "!": true,
	"[[": true, "]]": true,
}

// assignment matches the start of a word that assigns a variable.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+?=`)

// redirection matches a redirection operator at the start of the rest of
// a command: an optional fd number, then < > >> >| <> <& >& &> &>>.
var redirection = regexp.MustCompile(`^([0-9]*)(>>|>\||<>|<&|>&|&>>|&>|<|>)`)

// simpleCommand reports whether text is one simple command that can be
// exec'd, and returns its command name (unquoted) and the byte offset of
// the name in text, where the wrapper puts its exec; at is -1 when the
// command execs itself already ("exec npm start").
func simpleCommand(text string) (name string, at int, ok bool) {
	text = strings.TrimRight(text, " \t\n")
	if strings.ContainsAny(text, "\n\r`") {
		return "", 0, false
	}
	p := &shellWords{s: text}
	sawExec := false
	for {
		p.skipBlanks()
		if p.done() || p.s[p.i] == '#' {
			return "", 0, false // no command name
		}
		if p.redirect() {
			if !p.wordOK() {
				return "", 0, false
			}
			continue
		}
		start := p.i
		word, literal, good := p.word()
		if !good {
			return "", 0, false
		}
		switch {
		case !sawExec && assignment.MatchString(text[start:p.i]):
			if strings.HasPrefix(text[start:], "PATH=") || strings.HasPrefix(text[start:], "PATH+=") {
				return "", 0, false // the name would be looked up in another PATH
			}
			continue
		case !literal || reserved[word] || word == "" || strings.HasPrefix(word, "(("):
			return "", 0, false
		case word == "exec" && !sawExec:
			sawExec = true
			continue
		case sawExec && strings.HasPrefix(word, "-"):
			return "", 0, false // exec's own options
		}
		at = start
		if sawExec {
			at = -1
		}
		if !p.restOK() {
			return "", 0, false
		}
		return word, at, true
	}
}

// shellWords reads bash words off s, refusing what it does not know.
type shellWords struct {
	s string
	i int
}

func (p *shellWords) done() bool { return p.i >= len(p.s) }

func (p *shellWords) skipBlanks() {
	for !p.done() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// restOK reads the words and redirections after the command's name, up
// to the end or a comment.
func (p *shellWords) restOK() bool {
	for {
		p.skipBlanks()
		if p.done() || p.s[p.i] == '#' {
			return true
		}
		if p.redirect() {
			if !p.wordOK() {
				return false
			}
			continue
		}
		if _, _, ok := p.word(); !ok {
			return false
		}
	}
}

// redirect reads a redirection operator, if one starts here. Here
// documents and strings (<<, <<<), process substitution and named fds
// ({var}>) are refused later: << is read as < then a word starting with <,
// which wordOK refuses.
func (p *shellWords) redirect() bool {
	m := redirection.FindStringIndex(p.s[p.i:])
	if m == nil {
		return false
	}
	p.i += m[1]
	return true
}

// wordOK reads a redirection's target word; it must not be missing.
func (p *shellWords) wordOK() bool {
	p.skipBlanks()
	if p.done() {
		return false
	}
	_, _, ok := p.word()
	return ok
}

// word reads one word: unquoted characters, '…', "…", backslash escapes
// and simple parameter expansions ($NAME, ${NAME}, ${NAME:-word}). It
// returns the word with quotes removed, whether it is free of expansions
// and unquoted glob or tilde characters (literal), and false when the word
// holds anything else: an operator (| & ; ( )), a command or process
// substitution, arithmetic, $'…' or $"…", an unterminated quote.
func (p *shellWords) word() (string, bool, bool) {
	var b strings.Builder
	literal := true
	start := p.i
	for !p.done() {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t':
			return b.String(), literal, p.i > start
		case strings.IndexByte("|&;()<>", c) >= 0:
			return "", false, false
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", false, false
			}
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		case c == '\'':
			end := strings.IndexByte(p.s[p.i+1:], '\'')
			if end < 0 {
				return "", false, false
			}
			b.WriteString(p.s[p.i+1 : p.i+1+end])
			p.i += end + 2
		case c == '"':
			text, lit, ok := p.doubleQuoted()
			if !ok {
				return "", false, false
			}
			b.WriteString(text)
			literal = literal && lit
		case c == '$':
			if !p.parameter() {
				return "", false, false
			}
			literal = false
		default:
			if strings.IndexByte("*?[]{}", c) >= 0 || (c == '~' && p.i == start) {
				literal = false
			}
			b.WriteByte(c)
			p.i++
		}
	}
	return b.String(), literal, p.i > start
}

// doubleQuoted reads "…": escapes of " \ $ ` and simple parameter
// expansions inside.
func (p *shellWords) doubleQuoted() (string, bool, bool) {
	var b strings.Builder
	literal := true
	p.i++
	for !p.done() {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), literal, true
		case c == '\\' && p.i+1 < len(p.s) && strings.IndexByte("\"\\$`", p.s[p.i+1]) >= 0:
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		case c == '$':
			if !p.parameter() {
				return "", false, false
			}
			literal = false
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", false, false
}

// parameter reads $NAME, a special parameter ($1, $?, $$ …), ${NAME} or
// ${NAME<op>word} whose word holds no quotes, braces, $ or backslash.
func (p *shellWords) parameter() bool {
	rest := p.s[p.i+1:]
	switch {
	case rest == "":
		return false
	case strings.HasPrefix(rest, "{"):
		end := strings.IndexByte(rest, '}')
		if end < 0 || strings.ContainsAny(rest[1:end], "{$\\'\"`") {
			return false
		}
		p.i += end + 2
		return true
	case strings.IndexByte("@*#?-$!0123456789", rest[0]) >= 0:
		p.i += 2
		return true
	}
	n := 0
	for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
		n++
	}
	if n == 0 {
		return false // $( $(( $' $" and the like
	}
	p.i += 1 + n
	return true
}
