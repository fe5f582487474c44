package ide

import "testing"

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
