package review

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Bounds of the text the card shows from a plugin: everything on the card
// comes from the plugin's author, who may be the attacker the card is
// meant to expose.
const (
	MaxDescriptionBytes = 2 << 10 // plugin and tool descriptions, problems
	MaxFieldBytes       = 256     // names, versions, paths, domains, headers
)

// Clean renders untrusted text safe to print on one line of a terminal:
// control characters (C0, DEL, C1: newlines, ANSI escapes that hide or
// rewrite text) and the invisible characters that reorder or hide text
// (bidirectional overrides and isolates, zero-width marks, line and
// paragraph separators, BOM) are written as escapes (\n, \x1b, \u202e);
// invalid UTF-8 bytes as \xNN; text over max bytes is cut and ends with
// "…(N bytes)", N being its original length.
func Clean(s string, max int) string {
	n := len(s)
	cut := false
	if n > max {
		i := max
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s, cut = s[:i], true
	}
	if !needsEscape(s) && !cut {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		case invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	if cut {
		fmt.Fprintf(&b, "…(%d bytes)", n)
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < 0xa0 || invisible(r) {
			return true
		}
		i += size
	}
	return false
}

// invisible reports format characters that reorder, hide or break text.
func invisible(r rune) bool {
	switch {
	case r >= 0x200b && r <= 0x200f, // zero-width space, joiners, LRM, RLM
		r >= 0x2028 && r <= 0x202e, // line/paragraph separators, bidi embeddings and overrides
		r >= 0x2060 && r <= 0x2069, // word joiner, invisible operators, bidi isolates
		r == 0xfeff, r == 0x061c, r == 0x180e:
		return true
	}
	return false
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
		fetch := make([]FetchReach, len(t.Fetch))
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
		s.NativeTools[i] = n
	}
	s.UnboundPages = make([]UnboundPage, len(c.UnboundPages))
	for i, pg := range c.UnboundPages {
		pg.Page = Clean(pg.Page, f)
		s.UnboundPages[i] = pg
	}
	if sp := c.SincePinned; sp != nil {
		cp := *sp
		cp.Problem = Clean(sp.Problem, MaxDescriptionBytes)
		cp.Changes, cp.Files = cleanAll(sp.Changes, MaxDescriptionBytes), cleanAll(sp.Files, f)
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
