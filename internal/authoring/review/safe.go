package review

import (
	"encoding/json"
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Bounds of the text the card shows from a plugin: everything on the card
// comes from the plugin's author, who may be the attacker the card is
// meant to expose.
const (
	MaxDescriptionBytes = 2 << 10 // plugin and tool descriptions, problems
	MaxFieldBytes       = 256     // names, versions, paths, domains, headers
)

// Clean renders untrusted text safe to print on one line of a terminal:
// text over max bytes is cut and ends with "…(N bytes)", N being its
// original length (checker.Elide), and every control, format and
// separator character is shown as an escape (\n, \x1b, <U+202E>: the
// project's one sanitiser, text.Visible), and so is every other invisible
// character (a variation selector outside an emoji, a Hangul filler:
// text.Reveal), so a name or description cannot print a fake section,
// hide text or reorder what the reviewer reads.
func Clean(s string, max int) string {
	return text.Reveal(checker.Elide(s, max))
}

func cleanAll(in []string, max int) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = Clean(s, max)
	}
	return out
}

// Safe returns a copy of the card with every text from the plugin passed
// through Clean: Text and the JSON form print only this copy.
func (c *Card) Safe() *Card {
	s := *c
	f := MaxFieldBytes
	s.Plugin, s.Version, s.Hash = Clean(c.Plugin, f), Clean(c.Version, f), Clean(c.Hash, f)
	s.Description = Clean(c.Description, MaxDescriptionBytes)
	s.Problems = cleanAll(c.Problems, MaxDescriptionBytes)
	s.FunctionTools = make([]FunctionTool, len(c.FunctionTools))
	for i, t := range c.FunctionTools {
		t.Name, t.Registered, t.Page = Clean(t.Name, f), Clean(t.Registered, f), Clean(t.Page, f)
		t.Description = Clean(t.Description, MaxDescriptionBytes)
		t.Host = cleanAll(t.Host, f)
		fetch := make([]lockfile.Fetch, len(t.Fetch))
		for j, r := range t.Fetch {
			r.Domain = Clean(r.Domain, f)
			fetch[j] = r
		}
		t.Fetch = fetch
		creds := make([]CredReach, len(t.Credentials))
		for j, r := range t.Credentials {
			r.Name, r.Header, r.Domains = Clean(r.Name, f), Clean(r.Header, f), cleanAll(r.Domains, f)
			creds[j] = r
		}
		t.Credentials = creds
		t.AgentText = revealLines(t.AgentText)
		s.FunctionTools[i] = t
	}
	s.NativeTools = make([]NativeTool, len(c.NativeTools))
	for i, n := range c.NativeTools {
		n.Name, n.Module = Clean(n.Name, f), Clean(n.Module, f)
		n.Line = fmt.Sprintf("native tool %s (%s) in the full-trust lane", n.Name, n.Module)
		n.Description = Clean(n.Description, MaxDescriptionBytes)
		n.Requires = cleanAll(n.Requires, f)
		n.Untrusted = cleanAll(n.Untrusted, MaxDescriptionBytes)
		n.NeedsApproval, n.ModuleHash = Clean(n.NeedsApproval, f), Clean(n.ModuleHash, f)
		n.AgentText = revealLines(n.AgentText)
		s.NativeTools[i] = n
	}
	s.UnboundPages = make([]lockfile.UnboundPage, len(c.UnboundPages))
	for i, pg := range c.UnboundPages {
		pg.Page = Clean(pg.Page, f)
		s.UnboundPages[i] = pg
	}
	if sp := c.SincePinned; sp != nil {
		cp := *sp
		cp.Problem = Clean(sp.Problem, MaxDescriptionBytes)
		cp.Changes, cp.Files = cleanAll(sp.Changes, MaxDescriptionBytes), cleanAll(sp.Files, f)
		if sp.Text != nil {
			cp.Text = make([]TextDiff, len(sp.Text))
			for i, d := range sp.Text {
				cp.Text[i] = TextDiff{Tool: Clean(d.Tool, f), Old: revealAll(d.Old), New: revealAll(d.New)}
			}
		}
		s.SincePinned = &cp
	}
	return &s
}

// MarshalJSON writes the Safe copy of the card (a value receiver: a Card
// held by value is written safely too).
func (c Card) MarshalJSON() ([]byte, error) {
	type plain Card // without this method
	return json.Marshal((*plain)(c.Safe()))
}

func revealAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = text.Reveal(checker.Elide(s, MaxDescriptionBytes))
	}
	return out
}
