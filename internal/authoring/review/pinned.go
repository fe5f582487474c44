package review

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
)

// UnboundPage is a page under code/ that no tool binds. Run alone it has
// the minimal grant (no host method, no network, no credential), whatever
// the manifest's capabilities say.
type UnboundPage struct {
	Page  string `json:"page"`
	Grant string `json:"grant"` // "minimal"
}

// SincePinned is the card's section "since the pinned snapshot".
type SincePinned struct {
	// Snapshot is the pinned source-tree hash; Missing is set when the
	// plugin has no plugin.lock.json, Problem when it cannot be read.
	Snapshot string `json:"snapshot,omitempty"`
	Missing  bool   `json:"missing,omitempty"`
	Problem  string `json:"problem,omitempty"`
	// Changes are lines like "+ api.x.org (fetch, tool searchBooks)".
	Changes []string `json:"changes"`
	// Files changed, added or removed since the pin.
	Files []string `json:"files,omitempty"`
	// Text are the tools whose agent-facing text changed since the pin;
	// TextUnpinned is set when the snapshot pins no text (written before
	// text was pinned).
	Text         []TextDiff `json:"text,omitempty"`
	TextUnpinned bool       `json:"textUnpinned,omitempty"`
}

func unboundPages(p *checker.Plugin) []UnboundPage {
	out := []UnboundPage{}
	for _, pg := range capability.UnboundPages(p) {
		out = append(out, UnboundPage{Page: pg, Grant: "minimal"})
	}
	return out
}

// AddErrors lists the checker's errors among the card's problems
// ("code/a.ts:3:5: message [code]"): the approver should know the plugin
// has them. A manifest syntax error is left out (FromPlugin lists it).
// It reports whether there was an error.
func (c *Card) AddErrors(p *checker.Plugin, diags []checker.Diagnostic) bool {
	found := false
	for _, d := range diags {
		if d.Severity != checker.Error {
			continue
		}
		found = true
		if d.Code == "manifest-syntax" && d.File == checker.ManifestName {
			continue
		}
		line, col := 0, 0
		if f := p.File(d.File); f != nil {
			pos := f.Position(d.Span.Start)
			line, col = pos.Line, pos.Col
		}
		msg, _, _ := strings.Cut(d.Message, "\n")
		c.Problems = append(c.Problems, fmt.Sprintf("%s:%d:%d: %s [%s]", d.File, line+1, col+1, msg, d.Code))
	}
	return found
}
