package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// docPages are the reference pages README.md links to, in its order; each
// covers one subject and opens with a sentence saying which.
var docPages = []string{
	"docs/console.md",
	"docs/agent-tools.md",
	"docs/sessions.md",
	"docs/http.md",
	"docs/jobs.md",
	"docs/performance.md",
	"docs/testing.md",
}

// readDoc returns the file at path (relative to the repository's top) as
// a string, failing the test when it cannot be read.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeShape keeps README.md the front door: at most 150 lines, the
// picture before the first section, and a link to every reference page.
func TestReadmeShape(t *testing.T) {
	readme := readDoc(t, "README.md")
	if n := strings.Count(readme, "\n"); n > 150 {
		t.Errorf("README.md has %d lines, over 150: move the detail into docs/", n)
	}
	pic := strings.Index(readme, "](docs/img/console.svg)")
	if sec := strings.Index(readme, "\n## "); pic < 0 || sec < 0 || pic > sec {
		t.Errorf("README.md's picture (docs/img/console.svg) must come before its first section (picture at %d, first section at %d)", pic, sec)
	}
	for _, page := range docPages {
		if !strings.Contains(readme, "]("+page+")") {
			t.Errorf("README.md does not link to %s", page)
		}
	}
}

// TestDocsOpenWithWhatTheyCover checks that each reference page starts
// with its title and then a sentence of what it covers.
func TestDocsOpenWithWhatTheyCover(t *testing.T) {
	for _, page := range docPages {
		text := readDoc(t, page)
		lines := strings.SplitN(text, "\n", 4)
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "# ") || lines[1] != "" || !strings.HasPrefix(lines[2], "This page covers ") {
			t.Errorf("%s must open with \"# Title\", a blank line and \"This page covers …\"; it opens %q", page, strings.Join(lines[:min(3, len(lines))], "\n"))
		}
	}
}

// linkRE matches a Markdown link or image target: ](target).
var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve follows every relative link of README.md and the
// reference pages: the file exists, and an anchor names a heading of it
// (by the rule GitHub makes anchors with).
func TestDocsLinksResolve(t *testing.T) {
	for _, page := range append([]string{"README.md"}, docPages...) {
		text := readDoc(t, page)
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			body, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s links to %s: %v", page, target, err)
				continue
			}
			if anchor != "" && !hasAnchor(string(body), anchor) {
				t.Errorf("%s links to %s: %s has no heading with that anchor", page, target, path)
			}
		}
	}
	if !hasAnchor("## Names, results and budgets\n", "names-results-and-budgets") || hasAnchor("## Names\n", "results") {
		t.Error("hasAnchor does not make anchors as GitHub does")
	}
}

// hasAnchor reports whether markdown has a heading whose GitHub anchor is
// anchor: the heading's text in lower case, spaces as '-', and every
// character but letters, digits, '-' and '_' left out.
func hasAnchor(markdown, anchor string) bool {
	for line := range strings.SplitSeq(markdown, "\n") {
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				b.WriteRune(r)
			}
		}
		if b.String() == anchor {
			return true
		}
	}
	return false
}

// TestDocsScreenshot keeps the console page's text screenshot identical
// to the UI test's golden file it was taken from.
func TestDocsScreenshot(t *testing.T) {
	console := readDoc(t, "docs/console.md")
	golden := readDoc(t, "ui/testdata/view_80x24_3jobs.golden")
	if !strings.Contains(console, "```\n"+strings.TrimRight(golden, "\n")+"\n```") {
		t.Error("docs/console.md's screenshot differs from ui/testdata/view_80x24_3jobs.golden: paste the golden in again")
	}
}

// TestDocsNameRule: the agent's tools page states the rule of names the
// core keeps (any line, spaces included, not a number), in the core's
// words, and that rule is the one model.CheckName applies.
func TestDocsNameRule(t *testing.T) {
	flat := strings.Join(strings.Fields(readDoc(t, "docs/agent-tools.md")), " ")
	if !strings.Contains(flat, model.NameRule) {
		t.Errorf("docs/agent-tools.md does not state the rule of names model.CheckName keeps: %q", model.NameRule)
	}
	if _, err := model.CheckName("dev server"); err != nil {
		t.Errorf("a name with a space: %v", err)
	}
	if _, err := model.CheckName("12"); err == nil || !strings.Contains(err.Error(), model.NameRule) {
		t.Errorf("a number as a name: %v", err)
	}
}
