package jspage

import (
	"fmt"
	"strings"
	"testing"
)

// A URL built from a big constant repeated 20,000 times keeps only its
// start, and the host is still known.
func TestEvalLongURLIsBounded(t *testing.T) {
	c := strings.Repeat("a", 4096)
	src := fmt.Sprintf("const C = %q;\nexport default async function () {\n  return http.fetch(`https://api.example.com/%s`);\n}\n", c, strings.Repeat("${C}", 20_000))
	p := AnalyzePage("p.ts", []byte(src))
	if len(p.Errors) > 0 || len(p.Calls) != 1 || p.Calls[0].URL == nil {
		t.Fatalf("errors %v, calls %+v", p.Errors, p.Calls)
	}
	u := p.Calls[0].URL
	if u.Kind != Prefix || len(u.Value) > 64<<10 || !strings.HasPrefix(u.Value, "https://api.example.com/aaaa") || !strings.Contains(u.Reason, "64 KiB") {
		t.Errorf("got %v %d bytes %q", u.Kind, len(u.Value), u.Reason)
	}
}

// Constants doubling one another: 2^14 copies of "x", and 4^15
// evaluations of empty strings (hours without memoization or a step
// budget): a quick answer that is the URL or a start of it.
func TestEvalDoublingConstants(t *testing.T) {
	for _, c := range []struct{ seed, expr string }{{"x", "c%[2]d + c%[2]d"}, {"", "`${c%[2]d}${c%[2]d}${c%[2]d}${c%[2]d}`"}} {
		var b strings.Builder
		fmt.Fprintf(&b, "const c0 = %q;\n", c.seed)
		n := 14
		if c.seed == "" {
			n = 15
		}
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "const c%d = "+c.expr+";\n", i, i-1)
		}
		fmt.Fprintf(&b, "export default async function () { return http.fetch(\"https://api.example.com/\" + c%d); }\n", n)
		p := AnalyzePage("p.ts", []byte(b.String()))
		if len(p.Calls) != 1 || p.Calls[0].URL == nil {
			t.Fatalf("seed %q: calls %+v errors %v", c.seed, p.Calls, p.Errors)
		}
		// The answer is bounded and never wrong: the exact URL, or a start of it.
		truth := "https://api.example.com/" + strings.Repeat(c.seed, 1<<n)
		u := p.Calls[0].URL
		switch {
		case len(u.Value) > 64<<10:
			t.Errorf("seed %q: %d bytes kept", c.seed, len(u.Value))
		case u.Kind == Exact && u.Value != truth, u.Kind == Prefix && !strings.HasPrefix(truth, u.Value), u.Kind == Unknown:
			t.Errorf("seed %q: %v %d bytes %q", c.seed, u.Kind, len(u.Value), u.Reason)
		}
	}
}
