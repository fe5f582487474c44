package ide

import (
	"regexp"
	"strings"
	"testing"
)

// TestPlainText: Markdown written elsewhere loses its marks.
func TestPlainText(t *testing.T) {
	md := "**host method** `http.fetch`\n\nSee [docs](https://example.org/x) \\* 2\n\n---\n\n```json\n{\"a\": \"`x`\"}\n```\n\n| method | URL |\n|---|---|\n| GET | https://a.example |\n# Title"
	want := "host method http.fetch\n\nSee docs (https://example.org/x) * 2\n\n────────\n\n{\"a\": \"`x`\"}\n\nmethod  URL\nGET  https://a.example\nTitle"
	if got := (Doc{Markdown(md)}).PlainText(); got != want {
		t.Errorf("plain text:\n%s\nwant:\n%s", got, want)
	}
}

// TestDocRenderings: one doc, as Markdown (the plugin's words escaped)
// and as plain text (no marks at all).
func TestDocRenderings(t *testing.T) {
	d := Doc{
		Para(Strong("function tool"), Text(" "), Code("fn.a`b"), Text(" — "), Quote("uses *stars* and [links]")),
		List([]Inline{Quote("one_two")}, []Inline{Code("x")}),
		Rule(),
		Table([]string{"method", "URL"}, []string{"GET", "https://a.example/a|b"}),
		CodeBlock("json", "{\n  \"a\": 1\n}\n"),
		Para(StrongQuote("Error_x"), Text(": "), Quote("<b>")),
	}
	md := "**function tool** `fn.a'b` — uses \\*stars\\* and \\[links\\]\n\n" +
		"- one\\_two\n- `x`\n\n" +
		"---\n\n" +
		"| method | URL |\n|---|---|\n| GET | https://a.example/a\\|b |\n\n" +
		"```json\n{\n  \"a\": 1\n}\n```\n\n" +
		"**Error\\_x**: &lt;b>\n\n"
	if got := d.Markdown(); got != md {
		t.Errorf("Markdown:\n%q\nwant:\n%q", got, md)
	}
	plain := "function tool fn.a`b — uses *stars* and [links]\n\n" +
		"- one_two\n- x\n\n" +
		"────────\n\n" +
		"method  URL\nGET  https://a.example/a|b\n\n" +
		"{\n  \"a\": 1\n}\n\n" +
		"Error_x: <b>"
	if got := d.PlainText(); got != plain {
		t.Errorf("plain text:\n%q\nwant:\n%q", got, plain)
	}
}

// Plugin text that starts a paragraph or a list item cannot open a
// heading, a list, a quote or a code block there: its first mark is
// escaped (or its leading spaces written as entities).
func TestDocMarkdownBlockStart(t *testing.T) {
	escaped := regexp.MustCompile(`^(\\[#+\->=]|&#32;|[0-9]+\\[.)])`)
	for _, s := range []string{"# forged", "+ item", "- item", "12. item", "3) item", "> quote", "     code", "==="} {
		md := Doc{Para(Quote(s)), List([]Inline{Quote(s)})}.Markdown()
		para, item, _ := strings.Cut(md, "\n\n")
		if !escaped.MatchString(para) || !strings.HasPrefix(item, "- ") || !escaped.MatchString(item[2:]) {
			t.Errorf("%q: %q", s, md)
		}
	}
}
