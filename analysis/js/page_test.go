package js

import (
	"fmt"
	"strings"
	"testing"
)

// describe renders everything AnalyzePage found, one line per item, with
// 1-based lines and UTF-16 columns, so that tests compare everything.
func describe(src string, p *Page) []string {
	li := newLineIndex(src)
	at := func(sp Span) string {
		l, c := li.pos(sp.Start)
		return fmt.Sprintf("%d:%d %q", l+1, c+1, src[sp.Start:sp.End])
	}
	var out []string
	for _, c := range p.Calls {
		s := fmt.Sprintf("call %s.%s @%s callee=%q", c.Object, c.Method, at(c.Span), src[c.Callee.Start:c.Callee.End])
		if c.URL != nil {
			s += fmt.Sprintf(" url=%s %s %q", at(c.URL.Span), c.URL.Kind, c.URL.Value)
			if c.URL.Kind != Exact {
				s += " (" + c.URL.Reason + ")"
			}
			if c.URL.Lit.End > 0 {
				s += " lit=" + at(c.URL.Lit)
			}
		}
		if c.Object == "http" && c.Method == "fetch" {
			s += " method=" + c.FetchMethod
		}
		out = append(out, s)
	}
	if d := p.DefaultExport; d.Present {
		out = append(out, fmt.Sprintf("default %s @%s", d.Kind, at(d.Span)))
	}
	for _, h := range p.Headers {
		out = append(out, fmt.Sprintf("header %s @%s", h.Name, at(h.Span)))
	}
	for _, t := range p.Tokens {
		out = append(out, fmt.Sprintf("token %s @%s", t.Kind, at(t.Span)))
	}
	for _, e := range p.Errors {
		out = append(out, fmt.Sprintf("error @%s %s unsupported=%v", at(e.Span), e.Message, e.Unsupported))
	}
	return out
}

func check(t *testing.T, name, src string, want ...string) {
	t.Helper()
	got := describe(src, AnalyzePage(name, []byte(src)))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot:\n\t%s\nwant:\n\t%s", name, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestProbeSample(t *testing.T) {
	src := "interface A { x: number }\nconst API = 'https://a.com';\nexport default async function f(i: A) {\n  const r = await (http as any).fetch<string>(`${API}/x/${i.x}`, { method: 'POST' }); // 😀\n  const s = '😀'; await http?.fetch(\"https://b.com\"); await http[\"fetch\"](API + '/y');\n  for await (const x of y) { collections.get('a') }\n}\n"
	for _, l := range describe(src, AnalyzePage("p.ts", []byte(src))) {
		t.Log(l)
	}
}
