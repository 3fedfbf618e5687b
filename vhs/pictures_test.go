//go:build unix

package vhs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// pictures are the screenshots drawn for the docs: a tape, one of its
// Screenshots, and the SVG file (from this directory) it becomes.
var pictures = []struct{ tape, shot, file string }{
	{"front-door", "console", "../docs/img/console.svg"},
}

// TestPictures replays each picture's tape and draws its screenshot
// (Picture): the file under docs/ must hold exactly those bytes, so a
// picture never drifts from what the console does. -update writes them:
// go test ./vhs -run TestPictures -update.
func TestPictures(t *testing.T) {
	bin := jobdeckDir(t)
	for _, p := range pictures {
		t.Run(p.tape+"/"+p.shot, func(t *testing.T) {
			t.Parallel()
			tp, err := ReadTape(p.tape + ".tape")
			if err != nil {
				t.Fatal(err)
			}
			snaps, err := tp.Run(t.Context(), Options{PathPrepend: []string{bin}, Home: t.TempDir(), Dir: appDir(t), Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			for _, s := range snaps {
				if s.Name == p.shot {
					got = Picture(s)
				}
			}
			if got == nil {
				t.Fatalf("%s.tape has no Screenshot %s.png", p.tape, p.shot)
			}
			if *testkit.Update {
				if err := os.MkdirAll(filepath.Dir(p.file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p.file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(p.file)
			if err != nil {
				t.Fatalf("%v: draw it with go test ./vhs -run TestPictures -update", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s is stale against %s.tape's %s.png: redraw it with go test ./vhs -run TestPictures -update (and look at it)", p.file, p.tape, p.shot)
			}
		})
	}
}
