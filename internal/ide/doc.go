package ide

import (
	"regexp"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Doc is structured text: what a hover, a run's result or a host method's
// documentation says, as paragraphs, lists, tables, code blocks and rules.
// lsp renders it as Markdown or as plain text, whichever the client reads.
type Doc []Block

// Block is one block of a Doc; make it with Para, List, Table, CodeBlock,
// Rule or Markdown.
type Block struct {
	kind  blockKind
	inl   []Inline
	items [][]Inline
	rows  [][]string // Table: the header first
	lang  string
	text  string // CodeBlock: the code; Markdown: the Markdown
}

type blockKind int

const (
	paraBlock blockKind = iota
	listBlock
	tableBlock
	codeBlock
	ruleBlock
	markdownBlock
)

// Inline is a run of text in a paragraph or a list item.
type Inline struct {
	style style
	text  string
}

type style int

const (
	plain  style = iota // ours: written as is
	quoted              // someone else's words (a description, a message): escaped in Markdown
	strong
	strongQuoted
	code
)

// Text is text we wrote, Markdown-safe.
func Text(s string) Inline { return Inline{plain, s} }

// Quote is text from the plugin or a run (a description, a message).
func Quote(s string) Inline { return Inline{quoted, s} }

// Strong is text we wrote, in bold.
func Strong(s string) Inline { return Inline{strong, s} }

// StrongQuote is text from the plugin or a run, in bold.
func StrongQuote(s string) Inline { return Inline{strongQuoted, s} }

// Code is inline code (a name, a path, a value).
func Code(s string) Inline { return Inline{code, s} }

// Para is a paragraph.
func Para(in ...Inline) Block { return Block{kind: paraBlock, inl: in} }

// List is a bulleted list, one item per element.
func List(items ...[]Inline) Block { return Block{kind: listBlock, items: items} }

// Table is a table of plain cells, the header row first.
func Table(rows ...[]string) Block { return Block{kind: tableBlock, rows: rows} }

// CodeBlock is a block of code in language lang ("" for none).
func CodeBlock(lang, text string) Block { return Block{kind: codeBlock, lang: lang, text: text} }

// Rule is a horizontal rule.
func Rule() Block { return Block{kind: ruleBlock} }

// Markdown is Markdown written elsewhere (a host method's documentation, a
// tool's "markdown" result), rendered by SafeMarkdown: its formatting is
// kept, its links only to http, https and mailto, its HTML shown as text.
func Markdown(md string) Block { return Block{kind: markdownBlock, text: md} }

// Markdown renders the doc as Markdown. Every text in it may come from a
// plugin or a run (names are concatenated into Strong and Text too), so
// all of it is shown, never interpreted: controls and bidi characters as
// escapes (text.Visible), Markdown and HTML marks escaped, code fenced
// with a fence longer than any run of backticks in it.
func (d Doc) Markdown() string {
	var b strings.Builder
	for _, bl := range d {
		switch bl.kind {
		case paraBlock:
			b.WriteString(inlineMD(bl.inl) + "\n\n")
		case listBlock:
			for _, it := range bl.items {
				b.WriteString("- " + inlineMD(it) + "\n")
			}
			b.WriteString("\n")
		case tableBlock:
			for i, r := range bl.rows {
				b.WriteString("|")
				for _, c := range r {
					b.WriteString(" " + text.Markdown(c) + " |")
				}
				b.WriteString("\n")
				if i == 0 {
					b.WriteString("|" + strings.Repeat("---|", len(r)) + "\n")
				}
			}
			b.WriteString("\n")
		case codeBlock:
			b.WriteString(fenced(bl.lang, strings.Split(strings.TrimRight(text.VisibleBlock(bl.text), "\n"), "\n")) + "\n\n")
		case ruleBlock:
			b.WriteString("---\n\n")
		case markdownBlock:
			b.WriteString(strings.TrimRight(SafeMarkdown(bl.text), "\n") + "\n\n")
		}
	}
	return b.String()
}

func inlineMD(in []Inline) string {
	var b strings.Builder
	for i, x := range in {
		switch x.style {
		case plain, quoted:
			if i == 0 { // it starts the block: "# x" must not become a heading
				b.WriteString(text.MarkdownBlock(x.text))
				continue
			}
			b.WriteString(text.Markdown(x.text))
		case strong, strongQuoted:
			b.WriteString("**" + text.Markdown(x.text) + "**")
		case code:
			b.WriteString("`" + strings.ReplaceAll(text.Visible(x.text), "`", "'") + "`")
		}
	}
	return b.String()
}

// PlainText renders the doc as plain text: no markup, code verbatim, a
// table's cells two spaces apart; controls and bidi characters shown
// (text.VisibleBlock).
func (d Doc) PlainText() string {
	return text.VisibleBlock(d.plainText())
}

func (d Doc) plainText() string {
	var parts []string
	for _, bl := range d {
		var s string
		switch bl.kind {
		case paraBlock:
			s = inlineText(bl.inl)
		case listBlock:
			var lines []string
			for _, it := range bl.items {
				lines = append(lines, "- "+inlineText(it))
			}
			s = strings.Join(lines, "\n")
		case tableBlock:
			var lines []string
			for _, r := range bl.rows {
				cells := make([]string, len(r))
				for i, c := range r {
					cells[i] = strings.ReplaceAll(c, "\n", " ")
				}
				lines = append(lines, strings.Join(cells, "  "))
			}
			s = strings.Join(lines, "\n")
		case codeBlock:
			s = strings.TrimRight(bl.text, "\n")
		case ruleBlock:
			s = "────────"
		case markdownBlock:
			s = strings.TrimRight(plainText(bl.text), "\n")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n\n")
}

func inlineText(in []Inline) string {
	var b strings.Builder
	for _, x := range in {
		b.WriteString(x.text)
	}
	return b.String()
}

var (
	mdStrong   = regexp.MustCompile(`\*\*([^*\n]+)\*\*|__([^_\n]+)__`)
	mdCode     = regexp.MustCompile("`+([^`\n]*)`+")
	mdLink     = regexp.MustCompile(`\[([^\]\n]*)\]\(([^)\s]*)\)`)
	mdEscaped  = regexp.MustCompile("\\\\([\\\\`*_{}\\[\\]()#+\\-.!|<>~])")
	mdRule     = regexp.MustCompile(`^\s*(-{3,}|\*{3,}|_{3,})\s*$`)
	mdHeading  = regexp.MustCompile(`^#{1,6}\s+`)
	mdTableSep = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$`)
)

// plainText renders Markdown written elsewhere (strong, inline code,
// fenced blocks, links, rules, headings, simple tables, backslash escapes)
// as readable plain text. Code blocks keep their content verbatim.
func plainText(md string) string {
	var out []string
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			out = append(out, line)
			continue
		}
		switch {
		case mdRule.MatchString(line):
			out = append(out, "────────")
			continue
		case mdTableSep.MatchString(line):
			continue
		}
		line = mdHeading.ReplaceAllString(line, "")
		line = mdLink.ReplaceAllString(line, "$1 ($2)")
		line = mdStrong.ReplaceAllString(line, "$1$2")
		line = mdCode.ReplaceAllString(line, "$1")
		line = mdEscaped.ReplaceAllString(line, "$1")
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") && len(t) > 1 {
			cells := strings.Split(t[1:len(t)-1], "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			line = strings.Join(cells, "  ")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
