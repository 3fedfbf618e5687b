package testkit

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Marked lists the live processes, other than this one and its
// ancestors, whose argv or environment contains marker, each as "pid
// argv…". Markers are the environment entries jobdeck gives every process
// of a job (JOBDECK_SESSION=…) or a marker a test's commands carry.
// Without /proc (not Linux) it finds nothing.
func Marked(marker string) []string {
	skip := ancestors()
	m := []byte(marker)
	var found []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || skip[pid] {
			continue
		}
		if state, _, ok := stateOf(pid); !ok || state == 'Z' || state == 'X' {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if bytes.Contains(cmd, m) || bytes.Contains(env, m) {
			found = append(found, fmt.Sprintf("%d %s", pid, strings.TrimSpace(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))))
		}
	}
	return found
}

// Leftovers is what a test may have left behind: Marked(marker), and every
// zombie child of this process ("zombie pid"), which nobody reaped.
func Leftovers(marker string) []string {
	found := Marked(marker)
	self := os.Getpid()
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, ppid, ok := stateOf(pid); ok && (state == 'Z' || state == 'X') && ppid == self {
			found = append(found, fmt.Sprintf("zombie %d", pid))
		}
	}
	return found
}

// AssertNoLeftovers fails t (Errorf, listing them) when Leftovers(marker)
// still finds something after d; it looks every 50 ms until then.
func AssertNoLeftovers(t testing.TB, marker string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		left := Leftovers(marker)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("left behind after %v (marker %s):\n  %s", d, marker, strings.Join(left, "\n  "))
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// EnvMarked returns the pids of the processes whose environment holds the
// entry kv ("NAME=value") exactly: a marker a test's jobs export.
func EnvMarked(kv string) []int {
	want := []byte(kv)
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, entry := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(entry, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// ancestors is this process and every process above it.
func ancestors() map[int]bool {
	skip := map[int]bool{}
	for p := os.Getpid(); p > 1 && !skip[p]; {
		skip[p] = true
		_, ppid, ok := stateOf(p)
		if !ok {
			break
		}
		p = ppid
	}
	return skip
}

// stateOf reads the state and parent of pid from /proc/<pid>/stat (fields
// 3 and 4, counted after the command name, which may hold anything).
func stateOf(pid int) (state byte, ppid int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 || len(f[0]) != 1 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(string(f[1]))
	return f[0][0], ppid, err == nil
}
