//go:build unix

package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// Arg is the hidden first argument that makes a jobdeck binary run as a
// session process: when len(os.Args) > 1 && os.Args[1] == Arg, call
// os.Exit(Main()).
const Arg = "__jobdeck_session"

// envConfig carries the session's Config to the new process (the
// environment, not argv: `ps` and `pkill -f` see argv).
const envConfig = "JOBDECK_SESSION_CONFIG"

// Session process file descriptors, as spawn arranges them.
const (
	fdLock  = 3 // the locked lock file
	fdReady = 4 // write end of the ready pipe: "ok\n" or "error: …\n"
)

// DefaultLinger is how long a session waits after its last client left
// before it stops its jobs and exits; MaxLinger is the longest allowed.
const (
	DefaultLinger = 5 * time.Second
	MaxLinger     = time.Minute
)

// startTimeout bounds how long a client waits for a session it started to
// listen.
const startTimeout = 15 * time.Second

// maxLogBytes is the size past which a session's log is started anew.
const maxLogBytes = 1 << 20

// Config is what a session process is started with.
type Config struct {
	// Target is the session's worktree or name; Key its file-name stem.
	Target Target `json:"target"`
	// Dir is the session directory (Dir()).
	Dir string `json:"dir"`
	// Linger is how long the session outlives its last client (at most
	// MaxLinger; zero: it ends as soon as the last one leaves). Before its
	// first client attached, it waits at least firstClientWait.
	Linger time.Duration `json:"linger"`
	// Grace is the default time between SIGTERM and SIGKILL of the
	// session's jobs: nil means the jobs core's default, zero none
	// (SIGKILL at once).
	Grace *time.Duration `json:"grace,omitempty"`
}

func (c Config) path(ext string) string { return filepath.Join(c.Dir, c.Target.Key()+ext) }

// spawn starts a session process for cfg. lock is the session's lock file,
// locked by the caller: the new process inherits it, so the lock is held
// without a gap; the caller closes its own copy afterwards. spawn returns
// once the session listens, or with why it could not start.
func spawn(cfg Config, lock *os.File, exe string) error {
	if exe == "" {
		exe = selfExe()
	}
	enc, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start the session: %w", err)
	}
	defer readyR.Close()
	logf, err := openLog(cfg.path(".log"))
	if err != nil {
		readyW.Close()
		return err
	}
	cmd := exec.Command(exe, Arg)
	cmd.Args[0] = filepath.Base(os.Args[0])
	cmd.Env = append(os.Environ(), envConfig+"="+string(enc))
	cmd.Dir = cfg.Target.Worktree
	if st, err := os.Stat(cmd.Dir); err != nil || !st.IsDir() {
		cmd.Dir = "/"
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{lock, readyW}
	// Its own session: no controlling terminal, so the terminal's hang-up
	// and job-control signals never reach it, and it outlives the client
	// that started it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	readyW.Close()
	logf.Close()
	if err != nil {
		return fmt.Errorf("start the session process %s: %w", exe, err)
	}
	// Reap it if it ends while this client still runs.
	go func() { _ = cmd.Wait() }()

	type answer struct {
		line string
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		line, err := bufio.NewReader(readyR).ReadString('\n')
		ch <- answer{strings.TrimSpace(line), err}
	}()
	select {
	case a := <-ch:
		switch {
		case a.line == "ok":
			return nil
		case strings.HasPrefix(a.line, "error: "):
			return errors.New(strings.TrimPrefix(a.line, "error: "))
		case errors.Is(a.err, io.EOF):
			return fmt.Errorf("the session process exited while starting; its log is %s", cfg.path(".log"))
		}
		return fmt.Errorf("the session process answered %q while starting; its log is %s", a.line, cfg.path(".log"))
	case <-time.After(startTimeout):
		return fmt.Errorf("the session process did not start listening within %v; its log is %s", startTimeout, cfg.path(".log"))
	}
}

// selfExe is the path that starts this binary again.
func selfExe() string {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe"
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return os.Args[0]
}

// openLog opens the session's log for appending (0600), starting it anew
// when it grew past maxLogBytes.
func openLog(path string) (*os.File, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	if st, err := os.Lstat(path); err == nil && st.Size() > maxLogBytes {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the session log: %w", err)
	}
	return f, nil
}
