package analysis

import "sort"

// Severity of a diagnostic. The values match LSP's DiagnosticSeverity.
type Severity int

const (
	Error   Severity = 1
	Warning Severity = 2
	Info    Severity = 3
	Hint    Severity = 4
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	case Hint:
		return "hint"
	}
	return "unknown"
}

// Tag marks a diagnostic for special rendering.
type Tag int

const (
	// Unnecessary: unused code or configuration (rendered faded).
	Unnecessary Tag = 1
	// Deprecated: rendered struck through.
	Deprecated Tag = 2
)

// Diagnostic is one finding. File is a slash path relative to the plugin
// directory; Span is a byte range in that file.
type Diagnostic struct {
	File     string
	Span     Span
	Severity Severity
	Code     string
	Message  string
	Related  []Related
	Tags     []Tag
	Fixes    []Fix
}

// Related points at another place that explains the diagnostic (the
// manifest entry for a page diagnostic, and the other way round).
type Related struct {
	File    string
	Span    Span
	Message string
}

// Fix is one way to repair a diagnostic: a set of edits applied together.
type Fix struct {
	Title string
	Edits []Edit
}

// Edit replaces Span of File with NewText. When Create is set the file
// does not exist yet and NewText is its whole content (Span is empty).
type Edit struct {
	File    string
	Span    Span
	NewText string
	Create  bool
}

// SortDiagnostics orders diagnostics by file, position, code and message,
// so that output is stable.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		if a.Span.End != b.Span.End {
			return a.Span.End < b.Span.End
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}
