package explore

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

// TestConstrainedStrings: a free-form string with a pattern, a format or
// length bounds gets a value that keeps to them, holding the marker where
// they allow it; a schema without them, or one no value can keep to, is
// left to the marker.
func TestConstrainedStrings(t *testing.T) {
	m := Marker + "1"
	for _, c := range []struct {
		schema     schemaOf
		wantMarker bool // the value holds the marker
	}{
		{schemaOf{"type": "string", "pattern": `^[0-9]{10}([0-9]{3})?$`}, false},
		{schemaOf{"type": "string", "pattern": `^[a-z][a-z0-9-]*$`}, true},
		{schemaOf{"type": "string", "pattern": `^(eu|us)-[a-z]+$`}, true},
		{schemaOf{"type": "string", "pattern": `^(eu|us)-[0-9]+$`}, false},
		{schemaOf{"type": "string", "pattern": `^[A-Z]{2}\d{4}$`}, false},
		{schemaOf{"type": "string", "pattern": `^ghp_[A-Za-z0-9]{36}$`}, true},
		{schemaOf{"type": "string", "pattern": `@`}, true},
		{schemaOf{"type": "string", "pattern": `^\S+@\S+\.\S+$`}, true},
		{schemaOf{"type": "string", "format": "email"}, true},
		{schemaOf{"type": "string", "format": "uri"}, true},
		{schemaOf{"type": "string", "format": "date"}, false},
		{schemaOf{"type": "string", "format": "uuid", "pattern": "^[0-9a-f-]{36}$"}, false},
		{schemaOf{"type": "string", "minLength": 12.0}, true},
		{schemaOf{"type": "string", "maxLength": 3.0}, false},
		{schemaOf{"type": "string", "minLength": 3.0, "maxLength": 3.0, "pattern": "^[A-Z]+$"}, false},
	} {
		v, ok := constrained(c.schema, m)
		if !ok {
			t.Errorf("%v: no value", c.schema)
			continue
		}
		if p, _ := c.schema["pattern"].(string); p != "" && !regexp.MustCompile(p).MatchString(v) {
			t.Errorf("%v: %q does not match the pattern", c.schema, v)
		}
		if n, ok := intOf(c.schema["minLength"]); ok && utf8.RuneCountInString(v) < n {
			t.Errorf("%v: %q is shorter than minLength", c.schema, v)
		}
		if n, ok := intOf(c.schema["maxLength"]); ok && utf8.RuneCountInString(v) > n {
			t.Errorf("%v: %q is longer than maxLength", c.schema, v)
		}
		if strings.Contains(v, Marker) != c.wantMarker {
			t.Errorf("%v: %q, holds the marker: %v, want %v", c.schema, v, !c.wantMarker, c.wantMarker)
		}
	}
	for _, s := range []schemaOf{
		{"type": "string"},
		{"type": "string", "pattern": `^(?=a)b$`},                   // lookahead: not Go syntax
		{"type": "string", "pattern": `^a{300}$`},                   // longer than a made value may be
		{"type": "string", "pattern": `^[a-z]+$`, "maxLength": 0.0}, // nothing keeps to both
	} {
		if v, ok := constrained(s, m); ok {
			t.Errorf("%v: %q, want none", s, v)
		}
	}
}

// TestPatternCheckedInputReachesTheFetch: a page that checks its input
// as the schema's pattern says runs past the check, so exploration sees
// the fetch behind it (a host in a Map registry, which static analysis
// does not resolve); a host built from a pattern-bounded property that
// takes the marker is input-dependent, never reported.
func TestPatternCheckedInputReachesTheFetch(t *testing.T) {
	x := explorer(t)
	p := writePlugin(t, map[string]string{
		"plugin.json": `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [
    {"name": "book", "description": "a book by ISBN", "page": "code/book.ts",
     "inputJsonSchema": {"type": "object", "properties": {"isbn": {"type": "string", "pattern": "^[0-9]{10}([0-9]{3})?$"}, "notify": {"type": "string", "format": "email"}}, "required": ["isbn", "notify"]}},
    {"name": "tenant", "description": "a tenant's status", "page": "code/tenant.ts",
     "inputJsonSchema": {"type": "object", "properties": {"org": {"type": "string", "pattern": "^[a-z][a-z0-9-]{1,30}$"}}, "required": ["org"]}}],
  "capabilities": {"host": ["http.fetch"], "fetch": ["api.example.com"]}}`,
		"code/book.ts": `const HOSTS = new Map<string, string>([["books", ["books", "example", "org"].join(".")]]);
export default async function book(input: { isbn: string; notify: string }) {
  if (!/^\d{10}(\d{3})?$/.test(input.isbn)) throw new Error("not an ISBN: " + input.isbn);
  const [user, domain] = input.notify.split("@");
  if (!user || !domain) throw new Error("not an address");
  const r = await http.fetch("https://" + HOSTS.get("books") + "/isbn/" + input.isbn);
  return { type: "stat", label: "status", value: r.status };
}`,
		"code/tenant.ts": `export default async function tenant(input: { org: string }) {
  if (!/^[a-z][a-z0-9-]+$/.test(input.org)) throw new Error("bad org");
  const r = await http.fetch("https://" + input.org + ".status.example.net/v1");
  return { type: "stat", label: "status", value: r.status };
}`,
	})
	cfg := checker.DefaultConfig()
	cfg.Explored = x.Plugin(context.Background(), p)
	var undeclared []string
	dynamic := false
	for _, d := range checker.Run(p, rules.All(), cfg, nil) {
		switch d.Code {
		case rules.FetchUndeclaredDomain.Code:
			undeclared = append(undeclared, d.Message)
		case rules.FetchDynamicURL.Code:
			dynamic = dynamic || d.File == "code/tenant.ts"
		}
	}
	joined := strings.Join(undeclared, "\n")
	if !strings.Contains(joined, "books.example.org is not in capabilities.fetch") {
		t.Errorf("books.example.org behind the ISBN check not reported:\n%s\nexplored: %+v", joined, cfg.Explored["book"])
	}
	if strings.Contains(joined, "status.example.net") {
		t.Errorf("a host built from the input reported as a host:\n%s", joined)
	}
	if !dynamic {
		t.Error("the tenant's call is not flagged as input-dependent")
	}
}

// TestHostilePatterns: a manifest's pattern is untrusted input. Patterns
// that nest deeply, repeat a repeat, or match nothing give no value (the
// marker stands) and never a value over maxPatternValue; none panics.
func TestHostilePatterns(t *testing.T) {
	for _, c := range []struct {
		pattern string
		ok      bool
	}{
		{"(a{100}){100}", false},
		{"((a{10}){10}){10}", false},
		{strings.Repeat("(", 5000) + "a" + strings.Repeat(")", 5000), false},
		{`[\x{0}-\x{10FFFF}]{1000}`, false},
		{strings.Repeat("a?", 10000) + strings.Repeat("a", 10000), false},
		{`[^\x00-\x{10FFFF}]`, false},
		{"(a*)*b", true},
		{"(x+x+)+y", true},
		{`\p{Greek}+`, true},
	} {
		v, ok := constrained(schemaOf{"type": "string", "pattern": c.pattern}, Marker+"1")
		if ok != c.ok || len(v) > maxPatternValue+len(Marker)+8 {
			t.Errorf("%.40q: %v, %d bytes; want %v", c.pattern, ok, len(v), c.ok)
		}
		if ok && !regexp.MustCompile(c.pattern).MatchString(v) {
			t.Errorf("%.40q: %q does not match", c.pattern, v)
		}
	}
}
