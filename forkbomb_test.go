//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/supervisor"
)

// TestForkBomb: `jobdeck --serve` runs as a throwaway uid (RLIMIT_NPROC
// does not bind root) under `ulimit -u 60` (the case; the job gets
// half of it) and `ulimit -u 200` (the job gets 64 less), driven over MCP
// by the go-sdk client. A job runs a fork bomb. While the bomb holds the
// uid at the job's limit, jobdeck answers every ping, runs a new job, and
// kills the bomb; the final report says the job hit its process limit;
// jobdeck then exits 0, never having failed to make a thread. Before the
// limit, jobdeck under `ulimit -u 60` aborted in 6 of 10 such runs
// (`runtime/cgo: pthread_create failed`) and could start no other job.
func TestForkBomb(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run jobdeck as a throwaway uid: RLIMIT_NPROC does not bind root, so the test must not run jobdeck as root")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	taken := map[int]bool{}
	for _, ulimit := range []int{60, 200} {
		uid := throwawayUID(t, taken)
		taken[uid] = true
		t.Run(fmt.Sprintf("ulimit-u-%d", ulimit), func(t *testing.T) {
			t.Parallel()
			testForkBomb(t, uid, ulimit)
		})
	}
}

// testForkBomb runs TestForkBomb's story as uid under `ulimit -u
// bombUlimit`. jobdeck --serve is a relay to the session process that hosts
// the jobs; both run as uid with that limit.
func testForkBomb(t *testing.T, uid, bombUlimit int) {
	home, bin := prepareUIDHome(t, uid)
	cmd := exec.Command("bash", "-c", `ulimit -u `+strconv.Itoa(bombUlimit)+` && exec "$0" --serve --grace 1s`, bin)
	cmd.Dir = home
	sessions := filepath.Join(home, "sessions")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + home, "LC_ALL=C", asJobdeckEnv + "=1",
		"GORACE=atexit_sleep_ms=0", "JOBDECK_SESSION_DIR=" + sessions}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	var stderr testkit.Buffer
	cmd.Stderr = &stderr
	t.Cleanup(func() { killUID(uid) })

	ctx, cancel := context.WithTimeout(t.Context(), testtimeout.Scale(2*time.Minute))
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "forkbomb-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to jobdeck --serve as uid %d: %v\nstderr: %s", uid, err, stderr.String())
	}
	call := func(name string, args map[string]any) string {
		t.Helper()
		return testkit.CallTool(t, cs, testtimeout.Scale(30*time.Second), name, args, false)
	}

	p := startPinger(cs, testtimeout.Scale(2*time.Second))
	call("background", map[string]any{"command": ":(){ :|:& };:", "name": "bomb"})
	jobLimit := uint64(bombUlimit - 64)
	if bombUlimit < 128 {
		jobLimit = uint64(bombUlimit / 2)
	}
	var peak uint64
	if !testkit.Poll(testtimeout.Scale(30*time.Second), func() bool { peak = max(peak, uidTasks(uid)); return peak+4 >= jobLimit }) {
		t.Fatalf("the bomb never came near the job's limit of %d (peak %d tasks of uid %d)", jobLimit, peak, uid)
	}
	time.Sleep(time.Second) // the bomb keeps pressing on the limit
	peak = max(peak, uidTasks(uid))
	still := call("background", map[string]any{"command": "echo still-here", "name": "later"})
	if !testkit.Poll(testtimeout.Scale(10*time.Second), func() bool {
		return strings.Contains(call("job_status", map[string]any{"id": "later"}), "> still-here")
	}) {
		t.Errorf("a job started during the bomb did not run:\n%s", still)
	}
	killedAt := time.Now()
	final := call("job_kill", map[string]any{"id": "bomb", "grace": 0})
	killTook := time.Since(killedAt)
	if !strings.Contains(final, "process limit") {
		t.Errorf("the final report does not say the job hit its process limit:\n%.2000s", final)
	}
	// Only jobdeck is left: the --serve relay and the session process that
	// hosts the jobs (every job is over, so no supervisor runs).
	var left []string
	if !testkit.Poll(testtimeout.Scale(10*time.Second), func() bool { left = notJobdeck(uid, bin); return len(left) == 0 }) {
		t.Errorf("uid %d still runs other processes than jobdeck after the kill: %v", uid, left)
	}
	pings, slowest, failed := p.stop()
	t.Logf("uid %d, ulimit -u %d: peak %d tasks; %d pings, slowest %v, %d failed; job_kill took %v; %d tasks after; report head:\n%.600s",
		uid, bombUlimit, peak, pings, slowest.Round(time.Millisecond), len(failed), killTook.Round(time.Millisecond), uidTasks(uid), final)
	if len(failed) > 0 {
		t.Errorf("jobdeck did not answer %d of %d pings: %v", len(failed), pings, failed[:min(len(failed), 5)])
	}
	if err := cs.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("jobdeck did not exit 0 after EOF: %v", cmd.ProcessState)
	}
	// The session lingers a few seconds after its last client, then ends.
	if !testkit.Poll(testtimeout.Scale(20*time.Second), func() bool { return len(uidProcs(uid)) == 0 }) {
		t.Errorf("uid %d still runs processes after jobdeck's session should have ended: %v", uid, uidProcs(uid))
	}
	logs, _ := filepath.Glob(filepath.Join(sessions, "*.log"))
	out := stderr.String()
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		out += string(b)
	}
	for _, bad := range []string{"pthread_create", "failed to create new OS thread", "fatal error", "panic"} {
		if strings.Contains(out, bad) {
			t.Errorf("jobdeck's stderr or session log has %q:\n%s", bad, out)
		}
	}
}

// throwawayUID returns a uid that /etc/passwd does not list, that runs no
// process now and that is not taken (62000 + pid%1000, or the next free
// one).
func throwawayUID(t *testing.T, taken map[int]bool) int {
	t.Helper()
	passwd, _ := os.ReadFile("/etc/passwd")
	for i := 0; i < 1000; i++ {
		uid := 62000 + (os.Getpid()+i)%1000
		if !taken[uid] && !bytes.Contains(passwd, []byte(":"+strconv.Itoa(uid)+":")) && uidTasks(uid) == 0 {
			return uid
		}
	}
	t.Skip("no free uid in 62000-62999")
	return 0
}

// prepareUIDHome makes a directory the uid can reach, with a home (and
// TMPDIR) of its own and a copy of this test binary it may run.
func prepareUIDHome(t *testing.T, uid int) (home, bin string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "jobdeck-uid-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home = filepath.Join(dir, "home")
	bin = filepath.Join(dir, "jobdeck")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, uid, uid); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return home, bin
}

// uidTasks counts the tasks (threads) of uid's processes: what
// RLIMIT_NPROC counts.
func uidTasks(uid int) uint64 {
	_, n := testkit.TasksOf(uid)
	return n
}

// notJobdeck lists the processes of uid that are not jobdeck itself (the
// binary bin, not running as a supervisor).
func notJobdeck(uid int, bin string) []string {
	var out []string
	for _, pid := range uidProcs(uid) {
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		argv, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		args := strings.Split(string(argv), "\x00")
		if exe != bin || (len(args) > 1 && args[1] == supervisor.Arg) {
			out = append(out, fmt.Sprintf("%d %s", pid, strings.Join(args, " ")))
		}
	}
	return out
}

// uidProcs lists uid's processes.
func uidProcs(uid int) []int {
	pids, _ := testkit.TasksOf(uid)
	return pids
}

// killUID SIGKILLs every process of uid (through a pidfd, checking the uid
// again once it is open) until none is left, for at most 10 s.
func killUID(uid int) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		pids := uidProcs(uid)
		for _, pid := range pids {
			fd, err := unix.PidfdOpen(pid, 0)
			if err != nil {
				continue
			}
			var st unix.Stat_t
			if unix.Stat("/proc/"+strconv.Itoa(pid), &st) == nil && int(st.Uid) == uid {
				_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			}
			unix.Close(fd)
		}
		if len(pids) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pinger pings an MCP session every 50 ms until stopped, each ping bounded.
type pinger struct {
	stopCh chan struct{}
	done   chan struct{}
	n      int
	max    time.Duration
	failed []string
}

func startPinger(cs *mcp.ClientSession, bound time.Duration) *pinger {
	p := &pinger{stopCh: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for {
			select {
			case <-p.stopCh:
				return
			case <-time.After(50 * time.Millisecond):
			}
			ctx, cancel := context.WithTimeout(context.Background(), bound)
			began := time.Now()
			err := cs.Ping(ctx, nil)
			cancel()
			took := time.Since(began)
			p.n++
			p.max = max(p.max, took)
			if err != nil {
				p.failed = append(p.failed, fmt.Sprintf("%s: %v", began.Format("15:04:05.000"), err))
			}
		}
	}()
	return p
}

// stop ends the pings and returns how many were sent, the slowest, and
// the failures.
func (p *pinger) stop() (int, time.Duration, []string) {
	close(p.stopCh)
	<-p.done
	return p.n, p.max, p.failed
}
