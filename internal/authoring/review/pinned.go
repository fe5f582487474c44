package review

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

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

// ForApproval is the card an approver sees, as plugin-lsp review and the
// editor's plugin.reviewCard show it: Build, the "since the pinned
// snapshot" section (AnnotateCard) and the checker's errors among diags
// on its problems (AddErrors). When the tree cannot be hashed the card has
// no Hash, says so among its problems, and err is Build's. hasErrors
// reports an error among diags.
func ForApproval(p *checker.Plugin, diags []checker.Diagnostic) (c *Card, hasErrors bool, err error) {
	c, err = Build(p)
	AnnotateCard(c, p)
	if err != nil {
		c.Problems = append(c.Problems, "source-tree hash: "+err.Error())
	}
	return c, c.AddErrors(p, diags), err
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

// AnnotateCard fills the card's "since the pinned snapshot" section from
// the plugin's plugin.lock.json.
func AnnotateCard(c *Card, p *checker.Plugin) {
	sp := &SincePinned{Changes: []string{}}
	c.SincePinned = sp
	f, err := p.ReadFile(lockfile.FileName)
	if errors.Is(err, fs.ErrNotExist) {
		sp.Missing = true
		return
	}
	if err != nil {
		sp.Problem = err.Error()
		return
	}
	old, err := lockfile.Parse(f.Text)
	if err != nil {
		sp.Problem = err.Error()
		return
	}
	sp.Snapshot = old.SourceTreeHash
	now, err := lockfile.Build(p, "")
	if err != nil {
		sp.Problem = err.Error()
		return
	}
	for _, ch := range lockfile.Diff(old, now) {
		sp.Changes = append(sp.Changes, ch.Line())
	}
	texts, unpinned := lockfile.TextChanges(old, now)
	sp.TextUnpinned = unpinned
	for _, tc := range texts {
		name := "fn." + tc.Tool
		if tc.Native {
			name = tc.Tool
		}
		o, n := tc.Lines()
		sp.Text = append(sp.Text, TextDiff{Tool: name, Old: o, New: n})
	}
	changed, added, removed, _ := lockfile.Stale(old, now)
	for _, x := range changed {
		sp.Files = append(sp.Files, "~ "+x)
	}
	for _, x := range added {
		sp.Files = append(sp.Files, "+ "+x)
	}
	for _, x := range removed {
		sp.Files = append(sp.Files, "- "+x)
	}
}
