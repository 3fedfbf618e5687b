package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/model"
)

// The list of jobs and the finished-job notes: a line per job within the
// result's budget, and structured content that holds the same jobs with
// the same cut commands (Brief.Command, with Brief.CommandBytes the whole
// command's length). A command may be 1 MiB: no result carries one whole.
// The text and the structured content's JSON each fit the budget
// (ARCHITECTURE.md §5: memory is bounded whatever a job is given).

// cutCommand is a command as a result carries it: plain, cut to max
// characters with "…" as a header cuts it (max 0: whole), and the whole
// command's length in bytes when it was cut (0 when it was not).
func cutCommand(cmd string, max int) (string, int) {
	if max <= 0 || utf8.RuneCountInString(cmd) <= max {
		return plainString(cmd), 0
	}
	i := 0
	for range max {
		_, size := utf8.DecodeRuneInString(cmd[i:])
		i += size
	}
	return plainString(cmd[:i]) + "…", len(cmd)
}

// jsonSize is the bytes of v as addTool puts it on the wire.
func jsonSize(v any) int {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(v); err != nil {
		return 0 // this package's own types always encode
	}
	return b.Len() - 1 // the encoder's newline
}

// newBrief summarises snap for a list or a note, its command cut to
// cmdMax characters as its header line (the text's) cuts it.
func newBrief(snap model.Snapshot, now time.Time, cmdMax int) Brief {
	code, sig := exitFields(snap)
	cmd, n := cutCommand(snap.Command, cmdMax)
	return Brief{
		ID:           int(snap.ID),
		Name:         plainString(snap.Name),
		Command:      cmd,
		CommandBytes: n,
		State:        snap.State.String(),
		Status:       plainString(snap.Status()),
		Owner:        plainString(snap.Owner),
		ExitCode:     code,
		Signal:       sig,
		StillRunning: snap.Remaining,
		Header:       header(snap, now, cmdMax),
	}
}

// noteText is one line per job that finished since the client last
// looked: "job 2 exited 1 0:14 make test (finished; job_status {"id":2}
// for its output)". The text of the notes shown stays within maxBytes,
// and so does their JSON (briefs) when typed; the rest is counted.
func noteText(notes []model.Snapshot, now time.Time, maxBytes int, typed bool) (text string, briefs []Brief) {
	var b strings.Builder
	js := 2 // []
	for i, s := range notes {
		line := fmt.Sprintf(`%s (finished; job_status {"id":%d} for its output)`, header(s, now, maxShortCommand), s.ID)
		br := newBrief(s, now, maxShortCommand)
		bs := 0
		if typed {
			bs = jsonSize(br) + 1
		}
		if i > 0 && (b.Len()+len(line) > maxBytes || js+bs > maxBytes) {
			fmt.Fprintf(&b, "\n(%s finished too: job_status without id lists them)", model.Count(len(notes)-i, "more job", "more jobs"))
			return b.String(), briefs
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
		briefs = append(briefs, br)
		js += bs
	}
	return b.String(), briefs
}

// withNotes appends the note lines to text, after a blank line (an
// error's text: it has no structured content).
func withNotes(text string, notes []model.Snapshot, now time.Time) string {
	if len(notes) == 0 {
		return text
	}
	t, _ := noteText(notes, now, model.DefaultResultBytes/4, false)
	return text + "\n\n" + t
}

// listed is a list of jobs made to fit a budget.
type listed struct {
	text string
	// jobs are the jobs the text shows, in ID order, and out their
	// structured content; left counts the older finished jobs it leaves
	// out, and call is the call that lists more of them.
	jobs []model.Snapshot
	out  []Brief
	left int
	call string
}

// listText is the text of job_status without id after lead (a wait's
// note, or ""): one header per job, its command cut to maxListCommand
// characters, or to maxShortCommand when those do not fit budget, and
// then as many of the newest finished jobs as fit (every live job is
// shown, at most 8, whatever the budget); or "no jobs" with a hint. wait
// is the structured outcome of a wait the list follows (nil: none);
// typed bounds the structured content's JSON by budget too.
func listText(lead string, list []model.Snapshot, dropped int, now time.Time, budget int, wait *Wait, typed bool) listed {
	var tail []string
	switch {
	case dropped == 1:
		tail = append(tail, "(1 older finished job was dropped: only the most recent finished jobs are kept)")
	case dropped > 1:
		tail = append(tail, fmt.Sprintf("(%d older finished jobs were dropped: only the most recent finished jobs are kept)", dropped))
	}
	var head []string
	if lead != "" {
		head = append(head, lead)
	}
	if len(list) == 0 {
		head = append(head, `no jobs; start one with background {"command":"..."}`)
		return listed{text: strings.Join(append(head, tail...), "\n"), out: []Brief{}}
	}
	var l listed
	for _, cmdMax := range []int{maxListCommand, maxShortCommand} {
		var fits bool
		l, fits = fitList(head, tail, list, now, budget, cmdMax, wait, typed)
		if fits {
			break
		}
	}
	return l
}

// fitList words list with commands cut to cmdMax characters, leaving out
// the oldest finished jobs until the text (and when typed the JSON) fits
// budget; fits says that it left none out.
func fitList(head, tail []string, list []model.Snapshot, now time.Time, budget, cmdMax int, wait *Wait, typed bool) (listed, bool) {
	call := fmt.Sprintf(`job_status {"max_bytes":%d}`, model.MaxResultBytes)
	more := fmt.Sprintf("[… 99 jobs not shown (older, finished): %s]", call)
	lines := make([]string, len(list))
	briefs := make([]Brief, len(list))
	text := 0
	for _, s := range head {
		text += len(s) + 1
	}
	for _, s := range tail {
		text += len(s) + 1
	}
	// js is the JSON's size when typed; without, it stays far below any
	// budget: the JSON is not made, so it never binds.
	js, jsize := math.MinInt/2, func(Brief) int { return 0 }
	if typed {
		js, jsize = jsonSize(List{Jobs: []Brief{}, Wait: wait, More: 99, Calls: []string{call}}), func(b Brief) int { return jsonSize(b) + 1 } // the most the rest adds
	}
	for i, s := range list {
		lines[i], briefs[i] = header(s, now, cmdMax), newBrief(s, now, cmdMax)
		text += len(lines[i]) + 1
		js += jsize(briefs[i])
	}
	keep := make([]bool, len(list))
	left := 0
	for i := range list {
		keep[i] = true
	}
	over := func() bool {
		if left > 0 {
			return text+len(more)+1 > budget || js > budget
		}
		return text > budget || js > budget
	}
	for i := 0; i < len(list) && over(); i++ {
		if !list[i].Live() {
			keep[i] = false
			text -= len(lines[i]) + 1
			js -= jsize(briefs[i])
			left++
		}
	}
	l := listed{left: left, out: []Brief{}}
	var body []string
	for i, s := range list {
		if keep[i] {
			body = append(body, lines[i])
			l.jobs = append(l.jobs, s)
			l.out = append(l.out, briefs[i])
		}
	}
	if left > 0 {
		l.call = call
		body = append(body, fmt.Sprintf("[… %s not shown (older, finished): %s]", model.Count(left, "job", "jobs"), call))
	}
	l.text = strings.Join(append(append(head, body...), tail...), "\n")
	return l, left == 0
}
