package ide

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// outsideCode drops what SafeMarkdown keeps as code: the fenced blocks it
// writes (a line of backticks opens and the same line closes) and inline
// code spans on one line without '|'.
func outsideCode(md string) string {
	var keep []string
	fence := ""
	for _, l := range strings.Split(md, "\n") {
		if fence != "" {
			if l == fence {
				fence = ""
			}
			continue
		}
		if m := regexp.MustCompile("^(`{3,})[^`]*$").FindStringSubmatch(l); m != nil {
			fence = m[1]
			continue
		}
		keep = append(keep, dropSpans(l))
	}
	return strings.Join(keep, "\n")
}

// dropSpans replaces each code span of a line (a run of n backticks to
// the next run of exactly n, not after a backslash, without '|') with a
// space.
func dropSpans(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		if l[i] == '\\' && i+1 < len(l) {
			b.WriteString(l[i : i+2])
			i++
			continue
		}
		if l[i] != '`' {
			b.WriteByte(l[i])
			continue
		}
		n := strings.IndexFunc(l[i:], func(r rune) bool { return r != '`' })
		if n < 0 {
			n = len(l) - i
		}
		run := l[i : i+n]
		end := -1
		for j := i + n; j < len(l); {
			k := strings.IndexFunc(l[j:], func(r rune) bool { return r != '`' })
			if l[j] != '`' {
				j++
				continue
			}
			if k < 0 {
				k = len(l) - j
			}
			if k == n {
				end = j + k
				break
			}
			j += k
		}
		if end < 0 || strings.Contains(l[i:end], "|") {
			b.WriteString(run)
			i += n - 1
			continue
		}
		b.WriteByte(' ')
		i = end - 1
	}
	return b.String()
}

var (
	// a "](" to something but http(s) or mailto
	badLink = regexp.MustCompile(`\]\(\s*<?(?i:[^hm\s]|h[^t]|ht[^t]|htt[^p]|http[^s:]|https[^:]|m[^a]|ma[^i]|mai[^l]|mail[^t]|mailt[^o]|mailto[^:])`)
	badDef  = regexp.MustCompile(`\]:`)
	badHTML = regexp.MustCompile(`<[A-Za-z/!?]`)
	entity  = regexp.MustCompile(`&[A-Za-z#][A-Za-z0-9]*;?`)
)

// escaped reports that s[i] follows an odd number of backslashes.
func escaped(s string, i int) bool {
	n := 0
	for i > 0 && s[i-1] == '\\' {
		n, i = n+1, i-1
	}
	return n%2 == 1
}

// unsafe reports the first mark in rendered Markdown that would link
// anywhere but the web or mail, define a reference, open HTML or spell an
// entity, or a raw control character.
func unsafe(md string) string {
	for _, r := range md {
		if text.Hidden(r) && r != '\n' && r != '\t' {
			return "raw " + text.Visible(string(r))
		}
	}
	out := outsideCode(md)
	for _, re := range []*regexp.Regexp{badLink, badDef, badHTML, entity} {
		for _, m := range re.FindAllStringIndex(out, -1) {
			if e := out[m[0]:m[1]]; !escaped(out, m[0]) && e != "&lt;" && e != "&amp;" { // the two entities SafeMarkdown writes
				return e
			}
		}
	}
	return ""
}

func TestSafeMarkdownAttacks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"[run](command:workbench.action.terminal.new)", `[run\](command:workbench.action.terminal.new)`},
		{"[f](file:///etc/passwd) [v](vscode://x) [j](JavaScript:alert(1))", `[f\](file:///etc/passwd) [v\](vscode://x) [j\](JavaScript:alert(1))`},
		{"![img](command:x)", `![img\](command:x)`},
		{"[a]( <command:x>)", `[a\]( &lt;command:x>)`},
		{"[a][r]\n\n[r]: command:x", "[a][r\\]\n\n[r\\]: command:x"},
		{"<command:x> <a href=\"command:x\">y</a> <!-- c --> <?pi?>", `&lt;command:x> &lt;a href="command:x">y&lt;/a> &lt;!-- c --> &lt;?pi?>`},
		{"&#x202E; &lt;", "&amp;#x202E; &amp;lt;"},
		{`\[a](command:x) \\[b](command:y)`, `\[a\](command:x) \\[b\](command:y)`},
		{"[a](\ncommand:x)", "[a\\](\ncommand:x)"},
		{"ok [web](https://example.org/a?b=1&c=2) [mail](MAILTO:a@b.c) [h](HTTP://x)", "ok [web](https://example.org/a?b=1&amp;c=2) [mail](MAILTO:a@b.c) [h](HTTP://x)"},
		{"code `[a](command:x) <b>` stays", "code `[a](command:x) <b>` stays"},
		{"| `x | [a](command:y)` |", "| `x | [a\\](command:y)` |"},
		{"```js\nconst a = `[x](command:y)`;\n```\n[z](command:w)", "```js\nconst a = `[x](command:y)`;\n```\n[z\\](command:w)"},
		{"````\n```\n[a](command:x)\n````", "````\n```\n[a](command:x)\n````"},
		{"~~~ <b>\n[a](command:x)", "```b\n[a](command:x)\n```"},
		{"```a`b\n[a](command:x)", "```a`b\n[a\\](command:x)"},
		{"- ```\n  [a](command:x)\n  ```\n[b](command:y)", "- ```\n  [a\\](command:x)\n```\n[b](command:y)\n```"},
		{"bold \x1b[8mhidden\x1b[0m \u202egnp\r\nnext\rFAKE", "bold \\x1b[8mhidden\\x1b[0m &lt;U+202E>gnp\nnext\\rFAKE"},
	} {
		got := SafeMarkdown(c.in)
		if got != c.want {
			t.Errorf("SafeMarkdown(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if u := unsafe(got); u != "" {
			t.Errorf("SafeMarkdown(%q) = %q still holds %q", c.in, got, u)
		}
	}
}

// Random Markdown built of the marks an attacker combines: whatever the
// mix, the rendering holds no active link, definition, HTML, entity or
// raw control.
func TestSafeMarkdownRandom(t *testing.T) {
	parts := []string{"[", "]", "(", ")", "](", "]:", "<", ">", "&", "#", "`", "``", "```", "~~~", "\\", "\n", " ", "  ", "|", "!",
		"command:x", "file:///e", "vscode:", "http", "https://ok", "mailto:", "a", "b", "<a>", "&#x202E;", "\x1b[1A", "\u202e", "\r", "- ", "> "}
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 30000; i++ {
		var b strings.Builder
		for n := rng.Intn(30); n > 0; n-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		in := b.String()
		got := SafeMarkdown(in)
		if u := unsafe(got); u != "" {
			t.Fatalf("SafeMarkdown(%q) = %q still holds %q", in, got, u)
		}
	}
}

// A tool's markdown result and the plugin's strings reach the hover
// (Doc.Markdown, what lsp sends) and its plain-text form without links,
// HTML or raw controls.
func TestDocMarkdownUntrusted(t *testing.T) {
	evil := "x\n```\n[a](command:y)\n# h \x1b]8;;file:///x\x07<U\u202e"
	d := Doc{
		Para(Strong("Last run of "+evil), Text(evil), Quote(evil), StrongQuote(evil), Code(evil)),
		List([]Inline{Quote(evil)}),
		Table([]string{evil, "b"}, []string{"c", evil}),
		CodeBlock(evil, evil),
		Markdown(evil),
	}
	md := d.Markdown()
	if u := unsafe(md); u != "" {
		t.Errorf("Markdown holds %q:\n%s", u, md)
	}
	if inline := d[:3].Markdown(); strings.Contains(inline, "\n# h") || strings.Contains(inline, "\n```") {
		t.Errorf("a newline in a plugin's text started a block:\n%s", md)
	}
	for _, r := range d.PlainText() {
		if text.Hidden(r) && r != '\n' && r != '\t' {
			t.Errorf("plain text holds raw %s", text.Visible(string(r)))
		}
	}
}
