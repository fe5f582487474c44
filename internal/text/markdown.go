package text

import "strings"

// Markdown is s as Markdown inline text that shows s as it is, never
// interpreted: on one line (a newline could start a heading, a list or a
// fence), its hidden characters shown (Visible), and every mark that could
// start emphasis, code, a link, an image, HTML or an entity escaped. It is
// the one Markdown escaper of untrusted text: the hover (ide) and the
// review card (internal/authoring/review) both call it.
func Markdown(s string) string {
	return mdEscaper.Replace(Visible(strings.ReplaceAll(s, "\n", " ")))
}

var mdEscaper = strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", "&", "&amp;", "[", "\\[", "]", "\\]", "~", "\\~", "|", "\\|")

// MarkdownBlock is Markdown(s) for text that starts a block (a paragraph,
// a heading's or a list item's text): a mark that would open a block
// there ("# " a heading, "+ ", "- " or "1. " a list, "> " a quote, "="
// a setext underline, four spaces a code block) is escaped too, so the
// text stays the one paragraph or item it was written into.
func MarkdownBlock(s string) string {
	t := Markdown(s)
	lead := len(t) - len(strings.TrimLeft(t, " "))
	t = strings.Repeat("&#32;", lead) + t[lead:] // a space entity opens no block
	rest := t[lead*len("&#32;"):]
	if rest == "" {
		return t
	}
	head := t[:lead*len("&#32;")]
	switch c := rest[0]; {
	case strings.IndexByte("#+->=", c) >= 0:
		return head + "\\" + rest
	case c >= '0' && c <= '9':
		i := 0
		for i < len(rest) && i < 10 && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i < len(rest) && (rest[i] == '.' || rest[i] == ')') {
			return head + rest[:i] + "\\" + rest[i:]
		}
	}
	return t
}
