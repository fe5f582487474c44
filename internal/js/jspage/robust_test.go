package jspage

import (
	"bytes"
	"strings"
	"testing"
)

// checkBounds fails when a span leaves the source or the analysis
// reported an internal error.
func checkBounds(t *testing.T, src []byte, p *Page) {
	t.Helper()
	in := func(what string, s Span) {
		if s.Start < 0 || s.End > len(src) || s.Start > s.End {
			t.Errorf("%s span %v outside the source (%d bytes)", what, s, len(src))
		}
	}
	for _, c := range p.Calls {
		in("call", c.Span)
		in("callee", c.Callee)
		if c.URL != nil {
			in("url", c.URL.Span)
			in("lit", c.URL.Lit)
		}
	}
	for _, h := range p.Headers {
		in("header", h.Span)
	}
	for _, k := range p.Tokens {
		in("token", k.Span)
	}
	for _, e := range p.Errors {
		in("error", e.Span)
		if strings.Contains(e.Message, "internal error") {
			t.Errorf("internal error: %s", e.Message)
		}
	}
	in("default", p.DefaultExport.Span)
}

func TestHostileInputs(t *testing.T) {
	big := bytes.Repeat([]byte("const x = \"https://a.dev/\" + 1; // 😀\n"), 300_000) // ~12 MB
	cases := map[string][]byte{
		"empty.ts":       nil,
		"nul.ts":         []byte("\x00\x00\x00"),
		"invalid-utf8":   []byte("export default () => http.fetch(\"\xff\xfe\");"),
		"truncated.ts":   []byte("export default async () => http.fetch(`https://a.dev/${"),
		"unclosed.ts":    []byte("/* export default"),
		"deep.ts":        []byte(strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000)),
		"deep-url.ts":    []byte("const a0 = \"https://a.dev\";\n" + deepConsts(2000) + "export default () => http.fetch(a1999);"),
		"self-ref.ts":    []byte("const a = b + \"/\"; const b = a + \"/\"; export default () => http.fetch(a);"),
		"recursive.ts":   []byte("function f(): string { return f(); }\nexport default () => http.fetch(f());"),
		"huge.ts":        big,
		"template.ts":    []byte("export default () => http.fetch(`${`${`${\"https://a.dev\"}`}`}/x`);"),
		"binary.js":      bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 1000),
		"tsx.tsx":        []byte("export default () => <div>{http.fetch(\"https://a.dev/\")}</div>;"),
		"jsx-in-ts.ts":   []byte("export default () => <div/>;"),
		"only-export.ts": []byte("export {};"),
		"cut-utf8.ts":    []byte("//\xd0"), // hung esbuild's source-map quoting
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			p := AnalyzePage(name, src)
			checkBounds(t, src, p)
		})
	}
	if p := AnalyzePage("huge.ts", big); len(p.Errors) != 1 || !p.Errors[0].Unsupported {
		t.Errorf("a page over MaxSize: want one unsupported error, got %+v", p.Errors)
	}
}

func deepConsts(n int) string {
	var b strings.Builder
	for i := 1; i < n; i++ {
		b.WriteString("const a")
		b.WriteString(itoa(i))
		b.WriteString(" = a")
		b.WriteString(itoa(i - 1))
		b.WriteString(" + \"/\";\n")
	}
	return b.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

func FuzzAnalyzePage(f *testing.F) {
	for _, c := range pageCases {
		f.Add(c.src)
	}
	f.Add(page200())
	f.Fuzz(func(t *testing.T, src string) {
		p := AnalyzePage("fuzz.ts", []byte(src))
		checkBounds(t, []byte(src), p)
	})
}
