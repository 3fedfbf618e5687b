package main

import (
	"os"
	"strings"
	"testing"
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
