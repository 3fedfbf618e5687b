//go:build unix

package serve

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// openPrivateDir opens dir (creating it with mode 0700 when missing)
// without following a symlink, and checks that it is the user's own and
// mode 0700. It returns the directory's file descriptor.
func openPrivateDir(dir string) (int, error) {
	created := false
	if err := unix.Mkdir(dir, 0o700); err == nil {
		created = true
	} else if !errors.Is(err, unix.EEXIST) {
		return -1, fmt.Errorf("create %s: %w", dir, err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return -1, fmt.Errorf("%s: %w: it is a symlink or not a directory; remove it (jobdeck makes it anew)", dir, ErrUnsafeDir)
		}
		return -1, fmt.Errorf("open %s: %w", dir, err)
	}
	if created {
		// The umask may have taken bits away; it cannot have added any.
		unix.Fchmod(fd, 0o700)
	}
	if err := checkOwn(fd, dir, unix.S_IFDIR, 0o700, "chmod 700 "+dir); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// checkOwn checks that the open file fd is of type kind, owned by the
// effective user and has exactly mode perm; fix is the command that
// would repair the mode.
func checkOwn(fd int, path string, kind, perm uint32, fix string) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	mode := uint32(st.Mode) // uint16 on macOS and some BSDs
	switch {
	case mode&unix.S_IFMT != kind:
		return fmt.Errorf("%s: %w: it is not a regular %s; remove it", path, ErrUnsafeDir, map[uint32]string{unix.S_IFDIR: "directory", unix.S_IFREG: "file"}[kind])
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%s: %w: it belongs to uid %d, not to you (uid %d), and only its owner can remove it: set XDG_RUNTIME_DIR to a directory of your own (jobdeck then uses its jobdeck subdirectory), or give the token in JOBDECK_TOKEN", path, ErrUnsafeDir, st.Uid, os.Geteuid())
	case mode&0o7777 != perm:
		return fmt.Errorf("%s: %w: its mode is %04o, it must be %04o: %s", path, ErrUnsafeDir, mode&0o7777, perm, fix)
	}
	return nil
}

// tokenFile reads the token from TokenFileName in dir, making both when
// missing (see HTTPToken).
func tokenFile(dir string) (token, path string, err error) {
	dfd, err := openPrivateDir(dir)
	if err != nil {
		return "", "", err
	}
	defer unix.Close(dfd)
	path = filepath.Join(dir, TokenFileName)
	for range 3 {
		tok, err := readToken(dfd, path)
		if !errors.Is(err, unix.ENOENT) {
			return tok, path, err
		}
		if err := writeToken(dfd, path); err != nil && !errors.Is(err, unix.EEXIST) {
			return "", "", err
		}
		// Written, or another jobdeck wrote it first: read what is there.
	}
	return "", "", fmt.Errorf("%s: appears and disappears; is another program removing it?", path)
}

// readToken reads the token file in the directory dfd, checking it.
func readToken(dfd int, path string) (string, error) {
	fd, err := unix.Openat(dfd, TokenFileName, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return "", fmt.Errorf("%s: %w: it is a symlink; remove it (jobdeck makes a new token)", path, ErrUnsafeDir)
		}
		return "", err
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	if err := checkOwn(fd, path, unix.S_IFREG, 0o600, "chmod 600 "+path); err != nil {
		return "", err
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	tok := strings.TrimSpace(string(b))
	if err := CheckToken(tok); err != nil {
		return "", fmt.Errorf("%s: %w; remove the file and jobdeck makes a new token", path, err)
	}
	return tok, nil
}

// writeToken creates the token file with a new token. The token is
// written to a private temporary name first and then linked into place,
// so that a reader never sees a half-written file; EEXIST means another
// jobdeck was first.
func writeToken(dfd int, path string) error {
	raw := make([]byte, tokenBytes)
	rand.Read(raw) // never fails (crypto/rand)
	tmp := fmt.Sprintf(".%s-%d-%s", TokenFileName, os.Getpid(), hex.EncodeToString(raw[:4]))
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("create a token file in %s: %w", filepath.Dir(path), err)
	}
	defer unix.Unlinkat(dfd, tmp, 0)
	f := os.NewFile(uintptr(fd), tmp)
	defer f.Close()
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("chmod %s: %w", path, err)
	}
	if _, err := f.WriteString(hex.EncodeToString(raw) + "\n"); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return unix.Linkat(dfd, tmp, dfd, TokenFileName, 0)
}
