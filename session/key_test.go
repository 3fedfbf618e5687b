package session

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorktree: a subdirectory and a symlinked path name the same session
// as the repository's top; without git on PATH, the .git entry above
// still finds the top; outside a repository, the directory itself.
func TestWorktree(t *testing.T) {
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(repo, link); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(root, "plain")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(what, dir, want string) {
		t.Helper()
		got, err := Worktree(dir)
		if err != nil || got != want {
			t.Errorf("%s: Worktree(%s) = %q, %v; want %q", what, dir, got, err, want)
		}
	}
	// Without git on PATH (a GUI client's environment): the .git entry.
	t.Setenv("PATH", "/nonexistent")
	check("no git, subdirectory", sub, repo)
	check("no git, symlink", filepath.Join(link, "a"), repo)
	check("no git, outside a repository", plain, plain)
	if _, err := exec.LookPath("/usr/bin/git"); err == nil {
		t.Setenv("PATH", "/usr/bin:/bin")
		if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
		check("git, subdirectory", sub, repo)
		check("git, symlink", filepath.Join(link, "a"), repo)
	}
}

// TestLabelShowsEscapes: a worktree path with an escape sequence in its
// name is shown with the escape's control picture, never the byte itself
// (`jobdeck sessions` printed it raw to the terminal).
func TestLabelShowsEscapes(t *testing.T) {
	tg := Target{Worktree: "/tmp/e\x1b]0;PWN\x07\x1b[31mx"}
	for _, s := range []string{tg.Label(), tg.Phrase(), Info{Worktree: tg.Worktree}.Label()} {
		if strings.ContainsAny(s, "\x1b\x07") || !strings.Contains(s, "/tmp/e␛]0;PWN␇␛[31mx") {
			t.Errorf("shown as %q, want the escapes as ␛ and ␇", s)
		}
	}
}
