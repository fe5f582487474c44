package ide

import (
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// SafeMarkdown renders Markdown written elsewhere (a tool's "markdown"
// result, which the plugin wrote) so that it keeps its formatting but
// cannot act: in a hover a link to command:, file: or vscode: runs a
// command or opens a file, and raw HTML draws what it likes.
//
//   - Controls and bidi characters are shown (text.VisibleBlock).
//   - A link or image keeps its destination only when it starts with
//     http://, https:// or mailto: (in any case); any other "](" is
//     written "\](", which is no link. "]:" is always "\]:", so there is
//     no link reference definition to point a [text][ref] anywhere.
//   - '<' before a letter, '/', '!' or '?' (a tag, a comment, an
//     autolink <command:…>) is "&lt;", '&' before a letter or '#' (an
//     entity, which could spell a control) is "&amp;".
//   - Inline code on one line (without '|', which a table splits first)
//     and fenced code blocks are kept as is: Markdown interprets nothing
//     in them. A fenced block is written again with a backtick fence
//     longer than any run of backticks in it, so nothing in it can close
//     it early; one left open runs to the end, as CommonMark reads it.
//
// Text outside code is escaped wherever the parser might read a mark, so
// a construct this reading does not recognise is shown, not run.
func SafeMarkdown(md string) string {
	md = strings.ReplaceAll(text.VisibleBlock(md), "\r\n", "\n")
	lines := strings.Split(md, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		ch, n, info, ok := openFence(lines[i])
		if !ok {
			out = append(out, escapeMarkdownLine(lines[i]))
			continue
		}
		var body []string
		for i++; i < len(lines) && !closesFence(lines[i], ch, n); i++ {
			body = append(body, lines[i])
		}
		out = append(out, fenced(info, body))
	}
	return strings.Join(out, "\n")
}

// fenced is a fenced code block of lines (no newline after its closing
// fence), its fence longer than any run
// of backticks in them, its info string only the language's letters.
func fenced(lang string, lines []string) string {
	longest := 0
	for _, l := range lines {
		run := 0
		for i := 0; i < len(l); i++ {
			if l[i] == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	keep := func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+-_.#", r)) {
			return r
		}
		return -1
	}
	lang, _, _ = strings.Cut(strings.TrimSpace(lang), " ")
	var b strings.Builder
	b.WriteString(fence + strings.Map(keep, lang) + "\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString(fence)
	return b.String()
}

// openFence reads a line that opens a fenced code block (CommonMark: at
// most three spaces, then three or more backticks or tildes; after
// backticks, an info string without a backtick).
func openFence(line string) (ch byte, n int, info string, ok bool) {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '`' && line[i] != '~' {
		return 0, 0, "", false
	}
	ch = line[i]
	for i+n < len(line) && line[i+n] == ch {
		n++
	}
	info = line[i+n:]
	if n < 3 || ch == '`' && strings.Contains(info, "`") {
		return 0, 0, "", false
	}
	return ch, n, info, true
}

// closesFence reads a line that closes a fence of n ch.
func closesFence(line string, ch byte, n int) bool {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	k := 0
	for i+k < len(line) && line[i+k] == ch {
		k++
	}
	return k >= n && strings.Trim(line[i+k:], " \t") == ""
}

// escapeMarkdownLine escapes one line outside fenced code.
func escapeMarkdownLine(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && isASCIIPunct(line[i+1]):
			b.WriteString(line[i : i+2]) // an escape stays one
			i++
		case c == '`':
			n := 1
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			if end := closingTicks(line, i+n, n); end >= 0 && !strings.Contains(line[i:end], "|") {
				b.WriteString(line[i:end])
				i = end - 1
				continue
			}
			b.WriteString(line[i : i+n])
			i += n - 1
		case c == '<' && i+1 < len(line) && (isLetter(line[i+1]) || strings.IndexByte("/!?", line[i+1]) >= 0):
			b.WriteString("&lt;")
		case c == '&' && i+1 < len(line) && (isLetter(line[i+1]) || line[i+1] == '#'):
			b.WriteString("&amp;")
		case c == ']' && i+1 < len(line) && line[i+1] == ':':
			b.WriteString(`\]`)
		case c == ']' && (i+1 == len(line) || line[i+1] == '(') && !allowedDestination(line[min(i+2, len(line)):]):
			b.WriteString(`\]`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// closingTicks is the end of the first run of exactly n backticks at or
// after from, or -1.
func closingTicks(line string, from, n int) int {
	for i := from; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		k := 0
		for i+k < len(line) && line[i+k] == '`' {
			k++
		}
		if k == n {
			return i + k
		}
		i += k
	}
	return -1
}

// allowedDestination reports a link destination (the text after "](")
// that starts with http://, https:// or mailto:, in any case. A
// destination on the next line is refused.
func allowedDestination(rest string) bool {
	rest = strings.TrimLeft(rest, " \t") // "<https://…>" is refused: its '<' becomes "&lt;"
	l := strings.ToLower(rest[:min(len(rest), 8)])
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "mailto:")
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
