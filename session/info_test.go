//go:build unix

package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// Agents started at the same instant are all listed in the session's info
// file once they are attached, in every one of ten tries: the file is
// whole JSON written from the newest list, never two writers' bytes mixed
// in one temporary file, never an older list written last.
func TestInfoFileListsClientsStartedAtOnce(t *testing.T) {
	t.Parallel()
	const n = 4
	for try := range 10 {
		w := newWorld(t)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				cs, _ := w.agent(fmt.Sprintf("agent-%d-%d", try, i), "--linger", "0s", "--grace", "1s")
				w.call(cs, "job_status", map[string]any{}, false)
			})
		}
		wg.Wait()
		var last Info
		ok := testkit.Poll(10*time.Second, func() bool {
			i, ok := w.info()
			last = i
			return ok && len(i.Clients) == n
		})
		if !ok {
			raw, _ := os.ReadFile(filepath.Join(w.sdir, Target{Worktree: w.wt}.Key()+".json"))
			t.Fatalf("try %d: the info file lists %d clients with %d attached:\n%s", try, len(last.Clients), n, raw)
		}
	}
}

// On a full disk the info file's writer fails and leaves no temporary
// file behind (a tiny tmpfs, filled first; root only, for mount(2)).
func TestInfoFileFullDiskLeavesNoTemp(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tiny tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k,mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	fill, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	for _, err = fill.Write(make([]byte, 4096)); err == nil; _, err = fill.Write(make([]byte, 4096)) {
	}
	fill.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling the tmpfs: %v; want ENOSPC", err)
	}
	s := &server{cfg: Config{Dir: dir, Target: Target{Name: "full"}}, pid: os.Getpid()}
	err = s.writeInfoFile(Info{Key: "full", Clients: []ClientInfo{{ID: 1, Kind: KindMCP, Name: "agent"}}})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("writing the info on a full disk: %v; want ENOSPC", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	if len(left) != 0 {
		t.Fatalf("a failed write left %v", left)
	}
}

// A session that ends cleanly (its jobs stopped, only routine lines
// logged) removes its log; one that logged something worth reading (here
// that it re-created its removed socket) keeps it.
func TestCleanEndRemovesLog(t *testing.T) {
	t.Parallel()
	for _, notable := range []bool{false, true} {
		w := newWorld(t)
		a, _ := w.agent("agent", "--linger", "0s", "--grace", "1s")
		w.call(a, "background", map[string]any{"command": w.job("sleep 300")}, false)
		key := Target{Worktree: w.wt}.Key()
		logPath := filepath.Join(w.sdir, key+".log")
		if _, err := os.Stat(logPath); err != nil {
			t.Fatalf("a live session has no log: %v", err)
		}
		if notable {
			sock := filepath.Join(w.sdir, key+".sock")
			_ = os.Remove(sock)
			waitFor(t, 10*time.Second, "the session to re-create its socket", func() bool {
				_, err := os.Stat(sock)
				return err == nil
			})
		}
		a.Close()
		w.noLeftovers(15 * time.Second)
		_, err := os.Stat(logPath)
		switch {
		case !notable && !errors.Is(err, os.ErrNotExist):
			t.Errorf("a session that ended cleanly left its log %s (%v)", logPath, err)
		case notable && err != nil:
			t.Errorf("a session that logged a warning removed its log: %v", err)
		}
	}
}
