package lockfile

import (
	"errors"
	"io/fs"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// AnnotateCard fills the card's "since the pinned snapshot" section from
// the plugin's plugin.lock.json.
func AnnotateCard(c *review.Card, p *checker.Plugin) {
	sp := &review.SincePinned{Changes: []string{}}
	c.SincePinned = sp
	f, err := p.ReadFile(FileName)
	if errors.Is(err, fs.ErrNotExist) {
		sp.Missing = true
		return
	}
	if err != nil {
		sp.Problem = err.Error()
		return
	}
	old, err := Parse(f.Text)
	if err != nil {
		sp.Problem = err.Error()
		return
	}
	sp.Snapshot = old.SourceTreeHash
	now, err := Build(p, "")
	if err != nil {
		sp.Problem = err.Error()
		return
	}
	for _, ch := range Diff(old, now) {
		sp.Changes = append(sp.Changes, ch.Line())
	}
	texts, unpinned := TextChanges(old, now)
	sp.TextUnpinned = unpinned
	for _, tc := range texts {
		name := "fn." + tc.Tool
		if tc.Native {
			name = tc.Tool
		}
		o, n := tc.Lines()
		sp.Text = append(sp.Text, review.TextDiff{Tool: name, Old: o, New: n})
	}
	changed, added, removed, _ := Stale(old, now)
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
