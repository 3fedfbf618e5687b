package vhs

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// proc is one live process found in /proc.
type proc struct {
	pid, pgid int
	comm      string
	state     string // proc(5) stat field 3: R, S, D, T, …
}

// sessionProcs returns the live (non-zombie) processes whose session id is
// sid, read from /proc/<pid>/stat (proc(5): fields 5 and 6 are pgrp and
// session, after the parenthesised comm). Where /proc cannot be read it
// returns nil: the check is best effort, the pty's EIO is the main signal.
func sessionProcs(sid int) []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 4 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		pgid, _ := strconv.Atoi(f[2])
		sess, _ := strconv.Atoi(f[3])
		if sess == sid {
			out = append(out, proc{pid: pid, pgid: pgid, comm: s[open+1 : end], state: f[0]})
		}
	}
	return out
}

func describeProcs(ps []proc) string {
	if len(ps) == 0 {
		return "no process of the session, but the pty is still held (a process outside the session inherited it?)"
	}
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		// The state and the kernel function it sleeps in (proc(5) wchan)
		// tell a stopped or blocked process from a slow one.
		wchan, _ := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", p.pid))
		fmt.Fprintf(&b, "pid %d (%s, state %s, wchan %s)", p.pid, p.comm, p.state, strings.TrimSpace(string(wchan)))
	}
	return b.String()
}
