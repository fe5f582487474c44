package review

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// The card is laid out once, as sections of lines (layout), and rendered
// from that one layout for a terminal (Text) and as Markdown (Markdown,
// for an editor's view): the two cannot say different things.

// Section names, in the order Text and Markdown print them.
const (
	SectionPlugin        = "plugin"        // name, version, description, hash, problems
	SectionFunctionTools = "functionTools" // sandboxed tools and their reach
	SectionNativeTools   = "nativeTools"   // the full-trust lane
	SectionUnboundPages  = "unboundPages"  // pages no tool binds (only when there are some)
	SectionSincePinned   = "sincePinned"   // what changed since plugin.lock.json (only when compared)
)

// Section is one section of the card, rendered both ways.
type Section struct {
	Name     string `json:"name"`
	Text     string `json:"-"`
	Markdown string `json:"markdown"`
}

type lineKind int

const (
	lineTitle   lineKind = iota // the card's first line, or a section's heading
	lineItem                    // a line of the section (depth 1), or under one (depth 2, 3)
	linePara                    // a line of the plugin section
	lineWarning                 // a problem: the card may be incomplete
)

// line is one line of the card: what Text prints on one line and Markdown
// as one block or list item.
type line struct {
	kind  lineKind
	depth int // Text indents 2*depth spaces; Markdown nests lists
	parts []part
}

// part is a run of a line: ours (fixed wording and numbers) or text from
// the plugin (already through Safe), which Markdown escapes.
type part struct {
	s      string
	plugin bool
}

func ours(s string) part   { return part{s: s} }
func theirs(s string) part { return part{s: s, plugin: true} }

func ln(kind lineKind, depth int, parts ...part) line {
	return line{kind: kind, depth: depth, parts: parts}
}

type section struct {
	name  string
	lines []line
}

// layout is the card's content: c must be the Safe copy.
func (c *Card) layout() []section {
	var out []section
	head := section{name: SectionPlugin}
	name := theirs(c.Plugin)
	if c.Plugin == "" {
		name = ours("(unnamed plugin)")
	}
	head.lines = append(head.lines, ln(lineTitle, 0, ours("Plugin "), name, ours(" "), theirs(c.Version)))
	if c.Description != "" {
		head.lines = append(head.lines, ln(linePara, 1, theirs(c.Description)))
	}
	head.lines = append(head.lines, ln(linePara, 0, ours("Source-tree hash: "), theirs(c.Hash)))
	for _, p := range c.Problems {
		head.lines = append(head.lines, ln(lineWarning, 0, ours("WARNING: "), theirs(p)))
	}
	out = append(out, head)

	fn := section{name: SectionFunctionTools}
	fn.lines = append(fn.lines, ln(lineTitle, 0, ours(fmt.Sprintf("Function tools (sandboxed, %d):", len(c.FunctionTools)))))
	if len(c.FunctionTools) == 0 {
		fn.lines = append(fn.lines, ln(lineItem, 1, ours("(none)")))
	}
	for _, t := range c.FunctionTools {
		l := ln(lineItem, 1, theirs(t.Registered), ours("  ("), theirs(t.Page), ours(")"))
		if t.Description != "" {
			l.parts = append(l.parts, ours(": "), theirs(t.Description))
		}
		fn.lines = append(fn.lines, l)
		if len(t.Host) == 0 {
			fn.lines = append(fn.lines, ln(lineItem, 2, ours("host methods: none (minimal grant)")))
		} else {
			fn.lines = append(fn.lines, ln(lineItem, 2, ours("host methods: "), theirs(strings.Join(t.Host, ", "))))
		}
		if len(t.Fetch) == 0 {
			fn.lines = append(fn.lines, ln(lineItem, 2, ours("fetch: no network")))
		}
		for _, f := range t.Fetch {
			fn.lines = append(fn.lines, ln(lineItem, 2, ours("fetch: https://"), theirs(f.Domain), ours(fmt.Sprintf(" (max %d bytes, %d ms)", f.MaxBytes, f.TimeoutMs))))
		}
		for _, cr := range t.Credentials {
			if cr.Broken != "" {
				fn.lines = append(fn.lines, ln(lineItem, 2, ours("credential: "), theirs(cr.Name), ours(" is NEVER INJECTED (malformed): "), theirs(cr.Broken)))
				continue
			}
			scope := theirs(strings.Join(cr.Domains, ", "))
			if len(cr.Domains) == 0 {
				scope = ours("no domain")
			}
			l := ln(lineItem, 2, ours("credential: "), theirs(cr.Name), ours(" into header "), theirs(cr.Header), ours(", sent to "))
			if cr.Unscoped {
				l.parts = append(l.parts, ours("every fetch domain: "))
			}
			l.parts = append(l.parts, scope)
			fn.lines = append(fn.lines, l)
		}
		fn.lines = append(fn.lines, agentTextLines(t.AgentText, 2)...)
	}
	out = append(out, fn)

	nat := section{name: SectionNativeTools}
	nat.lines = append(nat.lines, ln(lineTitle, 0, ours(fmt.Sprintf("Native tools (full trust, %d):", len(c.NativeTools)))))
	if len(c.NativeTools) == 0 {
		nat.lines = append(nat.lines, ln(lineItem, 1, ours("(none)")))
	}
	for _, n := range c.NativeTools {
		nat.lines = append(nat.lines, ln(lineItem, 1, ours("native tool "), theirs(n.Name), ours(" ("), theirs(n.Module), ours(") in the full-trust lane")))
		if len(n.Untrusted) > 0 {
			nat.lines = append(nat.lines, ln(lineWarning, 2, ours("DECLARED TOOLS CANNOT BE TRUSTED: the module may change this definition after its literal, so what it says below is not what runs:")))
			for _, u := range n.Untrusted {
				nat.lines = append(nat.lines, ln(lineItem, 3, theirs(u)))
			}
		}
		if n.Description != "" {
			nat.lines = append(nat.lines, ln(lineItem, 2, ours("description: "), theirs(n.Description)))
		}
		if len(n.Requires) == 0 {
			nat.lines = append(nat.lines, ln(lineItem, 2, ours("requires: nothing")))
		} else {
			nat.lines = append(nat.lines, ln(lineItem, 2, ours("requires: "), theirs(strings.Join(n.Requires, ", "))))
		}
		nat.lines = append(nat.lines, ln(lineItem, 2, ours("needsApproval: "), theirs(n.NeedsApproval)))
		if n.ModuleHash != "" {
			nat.lines = append(nat.lines, ln(lineItem, 2, ours("module hash: "), theirs(n.ModuleHash)))
		}
		nat.lines = append(nat.lines, agentTextLines(n.AgentText, 2)...)
	}
	out = append(out, nat)

	if len(c.UnboundPages) > 0 {
		ub := section{name: SectionUnboundPages}
		ub.lines = append(ub.lines, ln(lineTitle, 0, ours(fmt.Sprintf("Pages no tool binds (%d): run alone, each keeps the minimal grant (no host method, no network):", len(c.UnboundPages)))))
		for _, pg := range c.UnboundPages {
			ub.lines = append(ub.lines, ln(lineItem, 1, theirs(pg.Page)))
		}
		out = append(out, ub)
	}

	if sp := c.SincePinned; sp != nil {
		s := section{name: SectionSincePinned}
		switch {
		case sp.Missing:
			s.lines = append(s.lines, ln(lineTitle, 0, ours("No pinned snapshot (plugin.lock.json): everything on this card is new. Pin it with plugin-lsp pin.")))
		case sp.Problem != "":
			s.lines = append(s.lines, ln(lineTitle, 0, ours("The pinned snapshot cannot be read: "), theirs(sp.Problem)))
		default:
			s.lines = append(s.lines, ln(lineTitle, 0, ours("Since the pinned snapshot ("), theirs(sp.Snapshot), ours("):")))
			if len(sp.Changes) == 0 {
				s.lines = append(s.lines, ln(lineItem, 1, ours("the reach is unchanged")))
			}
			for _, l := range sp.Changes {
				s.lines = append(s.lines, ln(lineItem, 1, theirs(l)))
			}
			if len(sp.Files) > 0 {
				s.lines = append(s.lines, ln(lineItem, 1, ours("files: "), theirs(strings.Join(sp.Files, ", "))))
			}
			if sp.TextUnpinned {
				s.lines = append(s.lines, ln(lineItem, 1, ours("the snapshot pins no tool text (written before text was pinned): re-pin to pin the descriptions and input schemas")))
			}
			for _, d := range sp.Text {
				s.lines = append(s.lines, ln(lineWarning, 1, ours("the text the agent reads of tool "), theirs(d.Tool), ours(" changed (pinned, then now):")))
				for i := range d.Old {
					s.lines = append(s.lines, ln(lineItem, 2, ours("pinned: "), theirOrBlank(d.Old[i])))
					s.lines = append(s.lines, ln(lineItem, 2, ours("now:    "), theirOrBlank(d.New[i])))
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// Sections renders the card's sections (its Safe copy), in order.
func (c *Card) Sections() []Section {
	var out []Section
	for _, s := range c.Safe().layout() {
		out = append(out, Section{Name: s.name, Text: s.text(), Markdown: s.markdown()})
	}
	return out
}

// Text renders the card for a terminal (its Safe copy: no plugin text can
// add a line, move the cursor or hide what follows). Sections are a blank
// line apart.
func (c *Card) Text() string {
	var parts []string
	for _, s := range c.Sections() {
		parts = append(parts, s.Text)
	}
	return strings.Join(parts, "\n")
}

// Markdown renders the card as Markdown with the content of Text, line for
// line: a heading per section, a list item per indented line, every text
// from the plugin escaped (text.MarkdownBlock), so it shows as written and
// cannot add a heading, a list item, a link or HTML.
func (c *Card) Markdown() string {
	var parts []string
	for _, s := range c.Sections() {
		parts = append(parts, s.Markdown)
	}
	return strings.Join(parts, "\n")
}

func (s section) text() string {
	var b strings.Builder
	for _, l := range s.lines {
		b.WriteString(strings.Repeat("  ", l.depth))
		for _, p := range l.parts {
			b.WriteString(p.s)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ourHash is a hash the card computed ("sha256:<hex>"), shown as code.
var ourHash = regexp.MustCompile(`^sha256:[0-9a-f]{1,64}$`)

func (s section) markdown() string {
	var b strings.Builder
	for i, l := range s.lines {
		body := inlineMD(l.parts)
		switch {
		case l.kind == lineTitle && i == 0 && s.name == SectionPlugin:
			b.WriteString("# " + body + "\n\n")
		case l.kind == lineTitle:
			b.WriteString("## " + strings.TrimSuffix(body, ":") + "\n\n")
		case l.kind == lineWarning && l.depth == 0:
			b.WriteString("> **" + body + "**\n\n")
		case l.kind == linePara:
			b.WriteString(body + "\n\n")
		default: // a list item, or a warning inside one
			if l.kind == lineWarning {
				body = "**" + body + "**"
			}
			b.WriteString(strings.Repeat("  ", max(l.depth-1, 0)) + "- " + body + "\n")
			if i+1 == len(s.lines) || s.lines[i+1].depth == 0 {
				b.WriteString("\n")
			}
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// inlineMD writes a line's parts as Markdown: ours as is (our wording
// holds no mark but the ones Markdown() chose), the plugin's escaped; a
// hash the card computed as code.
func inlineMD(parts []part) string {
	var b strings.Builder
	for i, p := range parts {
		switch {
		case !p.plugin:
			b.WriteString(text.Markdown(p.s))
		case ourHash.MatchString(p.s):
			b.WriteString("`" + p.s + "`")
		case i == 0:
			b.WriteString(text.MarkdownBlock(p.s))
		default:
			b.WriteString(text.Markdown(p.s))
		}
	}
	return b.String()
}

func theirOrBlank(s string) part {
	if s == "" {
		return ours("(no line)")
	}
	return theirs(s)
}
