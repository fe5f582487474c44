package testcase

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Status is a case's outcome.
type Status string

const (
	Pass Status = "pass"
	Fail Status = "fail"
	// Broken: the case could not run (a mistake in its test file, a
	// broken fixtures.json, an unknown tool).
	Broken Status = "error"
	// Skip: the case did not run, for the reason in Result.Skipped (a
	// native tool without trust, or whose run the editor did not get
	// approved). Never counted as passed.
	Skip Status = "skip"
)

// Result is one case's outcome.
type Result struct {
	Case     *Case          `json:"-"`
	Plugin   string         `json:"plugin"` // the plugin's directory
	File     string         `json:"file"`   // test file, relative to the plugin
	Line     int            `json:"line"`   // of the case, 1-based
	Tool     string         `json:"tool"`
	Name     string         `json:"name"`
	Status   Status         `json:"status"`
	Failures []Failure      `json:"failures,omitempty"`
	Record   *record.Record `json:"record,omitempty"`
	// Snapshot says what happened to the stored snapshot: "written"
	// (--update), "" otherwise.
	Snapshot   string  `json:"snapshot,omitempty"`
	DurationMs float64 `json:"durationMs"`
	// Skipped is why a case with status "skip" did not run.
	Skipped string `json:"skipped,omitempty"`
}

// ID is "<tool>/<name>", or the test file for a problem of the file.
func (r *Result) ID() string {
	if r.Tool == "" {
		return r.File
	}
	return r.Tool + "/" + r.Name
}

// Failure is one difference between what a case expects and what the run
// did. Path is where (result.docs[0].title, fetches[1].url, error.name);
// Expected and Actual are JSON texts ("" when absent on that side).
type Failure struct {
	Path     string `json:"path"`
	Message  string `json:"message"`
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
}

// FailureText is a result's failures as lines ("  result.title: differs\n
// expected "X"\n actual "Y"").
func FailureText(r *Result, indent string) string {
	var b strings.Builder
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "%s%s: %s\n", indent, text.Visible(f.Path), text.Visible(f.Message))
		if f.Expected != "" {
			fmt.Fprintf(&b, "%s    expected: %s\n", indent, text.Visible(f.Expected))
		}
		if f.Actual != "" {
			fmt.Fprintf(&b, "%s    actual:   %s\n", indent, text.Visible(f.Actual))
		}
	}
	return b.String()
}
