package checker

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
	// Subject is the name the diagnostic is about (a host, a path, a tool
	// name), when it has one: what later passes (fix ranking, root causes)
	// match diagnostics by, without reading messages.
	Subject string
	// Consequence is set on a diagnostic that follows from another one (a
	// misspelt key hides a whole section, a malformed entry grants
	// nothing): Related[0] points at the cause, and it sorts after every
	// diagnostic that is not a consequence.
	Consequence bool
}

// Related points at another place that explains the diagnostic (the
// manifest entry for a page diagnostic, and the other way round).
type Related struct {
	File    string
	Span    Span
	Message string
}

// Fix is one way to repair a diagnostic: a set of edits applied together,
// possibly in several files.
type Fix struct {
	Title string
	Edits []Edit
	// Preferred marks the fix an editor applies on "fix all" (LSP
	// isPreferred) and check --fix applies: the one that repairs what the
	// author meant. At most one fix of a diagnostic is preferred.
	Preferred bool
	// Removes is set when the fix takes something away (a capability, an
	// entry, code): check --fix never applies it.
	Removes bool
	// Ask is set when the fix is the author's call (a host that only looks
	// like a declared one, an IP literal): it is never preferred, not even
	// as a diagnostic's only fix, and check --fix leaves it.
	Ask bool
}

// Safe reports whether a fix may be applied without asking: it removes
// nothing (no capability, no code) and every edit inserts or replaces
// text rather than deleting it.
func (f Fix) Safe() bool {
	if f.Removes || f.Ask || len(f.Edits) == 0 {
		return false
	}
	for _, e := range f.Edits {
		if !e.Create && e.NewText == "" && e.Span.End > e.Span.Start {
			return false
		}
	}
	return true
}

// ShownFix is the title of the fix the text format prints under d: its
// preferred fix, else its first; "" when it has none.
func (d *Diagnostic) ShownFix() string {
	if fx := d.PreferredFix(); fx != nil {
		return fx.Title
	}
	if len(d.Fixes) > 0 {
		return d.Fixes[0].Title
	}
	return ""
}

// PreferredFix returns the diagnostic's preferred fix: the one marked
// Preferred, or its only fix unless that one is Ask; nil when there is
// none or the choice is the author's.
func (d *Diagnostic) PreferredFix() *Fix {
	for i := range d.Fixes {
		if d.Fixes[i].Preferred {
			return &d.Fixes[i]
		}
	}
	if len(d.Fixes) == 1 && !d.Fixes[0].Ask {
		return &d.Fixes[0]
	}
	return nil
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
// so that output is stable; consequences come after the rest, so a root
// cause is read first.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Consequence != b.Consequence {
			return !a.Consequence
		}
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
