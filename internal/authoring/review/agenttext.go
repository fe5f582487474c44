package review

import (
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// AgentLine is one line of the text a tool shows the agent, as the card
// shows it: every character, the invisible ones made visible (<U+200B>),
// and why the line is flagged.
type AgentLine struct {
	// Schema marks the line of the input schema (canonical JSON for a
	// function tool, the source for a native tool).
	Schema bool     `json:"schema,omitempty"`
	Text   string   `json:"text"`
	Flags  []string `json:"flags,omitempty"`
}

// maxAgentText bounds the description and the schema the card reads.
const maxAgentText = 64 << 10

// Flags of a line.
const (
	FlagHidden      = "hidden characters"
	FlagInstruction = "addresses the model: "
)

// agentLines splits an agent text (checker.ToolAgentText,
// checker.NativeAgentText: the description, then the schema on the last
// line) into the card's lines and flags them as text-hidden-characters and
// text-instructions would.
func agentLines(agent string) []AgentLine {
	desc, schema := agent, ""
	if i := strings.LastIndexByte(agent, '\n'); i >= 0 {
		desc, schema = agent[:i], agent[i+1:]
	}
	// A text far longer than any description is shown (and flagged) up to
	// the cut, which says how long it was.
	desc, schema = checker.Elide(desc, maxAgentText), checker.Elide(schema, maxAgentText)
	var out []AgentLine
	found := checker.Instructions(desc)
	off := 0
	for _, l := range strings.Split(desc, "\n") {
		al := AgentLine{Text: l}
		if len(text.InvisibleRuns(l)) > 0 {
			al.Flags = append(al.Flags, FlagHidden)
		}
		seen := map[string]bool{}
		for _, f := range found {
			if f.Start >= off && f.Start < off+len(l)+1 && !seen[f.Class] {
				seen[f.Class] = true
				al.Flags = append(al.Flags, FlagInstruction+f.Class)
			}
		}
		out = append(out, al)
		off += len(l) + 1
	}
	if len(out) == 1 && out[0].Text == "" {
		out = nil // no description
	}
	if schema != "" {
		al := AgentLine{Schema: true, Text: schema}
		if len(text.InvisibleRuns(schema)) > 0 {
			al.Flags = append(al.Flags, FlagHidden)
		}
		seen := map[string]bool{}
		for _, f := range checker.Instructions(schema) {
			if !seen[f.Class] {
				seen[f.Class] = true
				al.Flags = append(al.Flags, FlagInstruction+f.Class)
			}
		}
		out = append(out, al)
	}
	return out
}

// revealLines is the Safe copy of agent lines: cut at MaxDescriptionBytes
// each, every invisible character shown (text.Reveal).
func revealLines(in []AgentLine) []AgentLine {
	if in == nil {
		return nil
	}
	out := make([]AgentLine, len(in))
	for i, l := range in {
		l.Text = text.Reveal(checker.Elide(l.Text, MaxDescriptionBytes))
		l.Flags = cleanAll(l.Flags, MaxFieldBytes)
		out[i] = l
	}
	return out
}

// TextDiff is a tool whose agent text changed since the pin: the lines
// that differ, old beside new.
type TextDiff struct {
	Tool string   `json:"tool"` // fn.<name> or the native name
	Old  []string `json:"old"`
	New  []string `json:"new"`
}

// agentTextLines renders a tool's agent lines on the card.
func agentTextLines(ls []AgentLine, depth int) []line {
	if len(ls) == 0 {
		return nil
	}
	out := []line{ln(lineItem, depth, ours("the agent reads:"))}
	for _, l := range ls {
		var parts []part
		if len(l.Flags) > 0 {
			parts = append(parts, ours("FLAGGED ("+strings.Join(l.Flags, "; ")+"): "))
		} else {
			parts = append(parts, ours("| "))
		}
		if l.Schema {
			parts = append(parts, ours("input schema: "))
		}
		if l.Text == "" {
			parts = append(parts, ours("(blank line)"))
		} else {
			parts = append(parts, theirs(l.Text))
		}
		kind := lineItem
		if len(l.Flags) > 0 {
			kind = lineWarning
		}
		out = append(out, ln(kind, depth+1, parts...))
	}
	return out
}
