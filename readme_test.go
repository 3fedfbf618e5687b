package main

import (
	"os"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestReadmeScreenshot keeps the README's text screenshot of the console
// identical to the UI test's golden file it was taken from.
func TestReadmeScreenshot(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("ui/testdata/view_80x24_3jobs.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+strings.TrimRight(string(golden), "\n")+"\n```") {
		t.Error("README.md's screenshot differs from ui/testdata/view_80x24_3jobs.golden: paste the golden in again")
	}
}

// TestReadmeNameRule (tester 2, item 10): the README gave a Procfile's
// rule for names (letters, digits, _ and -) where the core takes any line,
// spaces included. The README states the core's rule, in its words.
func TestReadmeNameRule(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(readme)), " ")
	if !strings.Contains(flat, model.NameRule) {
		t.Errorf("README.md does not state the rule of names model.CheckName keeps: %q", model.NameRule)
	}
	// The rule is the one CheckName keeps.
	if _, err := model.CheckName("dev server"); err != nil {
		t.Errorf("a name with a space: %v", err)
	}
	if _, err := model.CheckName("12"); err == nil || !strings.Contains(err.Error(), model.NameRule) {
		t.Errorf("a number as a name: %v", err)
	}
}
