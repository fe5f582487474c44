package ide

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// PinResult is what plugin.pin answers.
type PinResult struct {
	Pinned bool `json:"pinned"`
	// File is the snapshot written; Changes are the reach changes since
	// the previous snapshot ("+ api.x.org (fetch, tool searchBooks)").
	File    string   `json:"file,omitempty"`
	Changes []string `json:"changes"`
	// Card is the review card that was shown.
	Card any `json:"card,omitempty"`
}

// The actions of the pin question.
const (
	PinAction       = "Pin"
	PinCancelAction = "Cancel"
)

// PinConfirm is the question plugin.pin asks (without "confirm" or an
// approval token) before it writes: PinQuestion's text, Pin or Cancel.
func PinConfirm(p *checker.Plugin, card any) Question {
	return Question{Message: PinQuestion(p, card), Actions: []string{PinAction, PinCancelAction}}
}

// PinQuestion is the confirmation plugin.pin asks before it writes the
// capability snapshot: the review card, led by what changed since the
// pinned snapshot (a client that cuts a long message keeps its start).
func PinQuestion(p *checker.Plugin, card any) string {
	var b strings.Builder
	name, _ := checker.Str(p.Manifest.Name)
	fmt.Fprintf(&b, "%s of %s? Review what you approve:\n\n", PinLabel, text.Visible(name))
	if c, ok := card.(*review.Card); ok {
		// What changed since the pin first: it is what is approved, and a
		// client that cuts a long message keeps its start.
		var rest []string
		for _, sec := range c.Sections() {
			if sec.Name == review.SectionSincePinned {
				b.WriteString(sec.Text + "\n")
			} else {
				rest = append(rest, sec.Text)
			}
		}
		b.WriteString(strings.Join(rest, "\n"))
	} else if card != nil {
		j, _ := json.MarshalIndent(card, "", "  ")
		b.Write(j)
	}
	return b.String()
}
