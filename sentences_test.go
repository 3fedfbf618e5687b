package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// minSentenceWords is how many words make a string literal a sentence
// for TestOneWordingPerFact.
const minSentenceWords = 4

// sentences are the string literals of at least minSentenceWords words
// in the non-test Go files of the package in dir, each with where it is.
func sentences(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			s = strings.TrimSpace(s)
			if len(strings.Fields(s)) >= minSentenceWords {
				out[s] = fset.Position(lit.Pos()).String()
			}
			return true
		})
	}
	return out
}

// sharedSentences are the sentences both maps hold, as "a and b: text"
// lines, sorted.
func sharedSentences(a, b map[string]string) []string {
	var out []string
	for s, at := range a {
		if other, ok := b[s]; ok {
			out = append(out, at+" and "+other+": "+strconv.Quote(s))
		}
	}
	slices.Sort(out)
	return out
}

// TestOneWordingPerFact keeps each sentence that both the console and
// the agent show in one place (package words, or model): a string
// literal of four or more words written in both serve and ui/present
// means one fact has two wordings that can drift apart.
func TestOneWordingPerFact(t *testing.T) {
	t.Parallel()
	for _, s := range sharedSentences(sentences(t, "serve"), sentences(t, "ui/present")) {
		t.Errorf("written in both serve and ui/present: %s: make it once (ARCHITECTURE.md §3)", s)
	}
}

// TestSharedSentencesFound is the negative control: a sentence written
// in the Go files of two packages is found; a shorter literal, one only
// in a test file, and one in only one package are not.
func TestSharedSentencesFound(t *testing.T) {
	t.Parallel()
	write := func(dir, name, src string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	write(a, "a.go", "package a\n\nconst x, y = \"note: was not sent by jobdeck\", \"two words\"\n")
	write(a, "a_test.go", "package a\n\nconst t = \"only in a test file\"\n")
	write(b, "b.go", "package b\n\nconst x, y, z = `note: was not sent by jobdeck`, \"two words\", \"only in package b here\"\n")
	write(b, "b_test.go", "package b\n\nconst t = \"only in a test file\"\n")
	got := sharedSentences(sentences(t, a), sentences(t, b))
	if len(got) != 1 || !strings.Contains(got[0], `"note: was not sent by jobdeck"`) {
		t.Fatalf("shared = %q, want the one sentence both packages write", got)
	}
}
