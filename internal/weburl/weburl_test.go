package weburl

import (
	"encoding/json"
	"os"
	"testing"
)

// loadCases reads a WPT-format file: strings are comments, objects are
// cases; every string field but input/base is an expected getter value.
func loadCases(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw []any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, r := range raw {
		if m, ok := r.(map[string]any); ok {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return out
}

func getter(c Components, name string) (string, bool) {
	switch name {
	case "href":
		return c.Href, true
	case "origin":
		return c.Origin, true
	case "protocol":
		return c.Protocol, true
	case "username":
		return c.Username, true
	case "password":
		return c.Password, true
	case "host":
		return c.Host, true
	case "hostname":
		return c.Hostname, true
	case "port":
		return c.Port, true
	case "pathname":
		return c.Pathname, true
	case "search":
		return c.Search, true
	case "hash":
		return c.Hash, true
	}
	return "", false
}

func TestURLTestData(t *testing.T) {
	for _, c := range loadCases(t, "testdata/urltestdata.json") {
		input := c["input"].(string)
		base, _ := c["base"].(string)
		var u *URL
		var err error
		if base != "" {
			u, err = ParseRef(input, base)
		} else {
			u, err = Parse(input, nil)
		}
		if c["failure"] == true {
			if err == nil {
				t.Errorf("%q (base %q): parsed as %q, want failure", input, base, u.Href())
			}
			continue
		}
		if err != nil {
			t.Errorf("%q (base %q): %v", input, base, err)
			continue
		}
		comps := u.Components()
		for k, v := range c {
			want, ok := v.(string)
			if !ok || k == "input" || k == "base" {
				continue
			}
			got, known := getter(comps, k)
			if !known {
				t.Fatalf("unknown field %q", k)
			}
			if got != want {
				t.Errorf("%q (base %q): %s = %q, want %q", input, base, k, got, want)
			}
		}
		// The serialization is a fixed point of the parser.
		if again, err := Parse(comps.Href, nil); err != nil || again.Href() != comps.Href {
			t.Errorf("%q: href %q does not reparse to itself (%v)", input, comps.Href, err)
		}
	}
}

func TestSetters(t *testing.T) {
	for _, c := range loadCases(t, "testdata/setters.json") {
		href, setter, value := c["href"].(string), c["setter"].(string), c["value"].(string)
		u, err := Parse(href, nil)
		if err != nil {
			t.Fatalf("%q: %v", href, err)
		}
		u2, err := u.Set(setter, value)
		if err != nil {
			t.Errorf("%s = %q on %q: %v", setter, value, href, err)
			continue
		}
		comps := u2.Components()
		for k, v := range c["expected"].(map[string]any) {
			got, _ := getter(comps, k)
			if got != v.(string) {
				t.Errorf("%s = %q on %q: %s = %q, want %q", setter, value, href, k, got, v)
			}
		}
		if u.Href() != href && u.Href() != mustHref(t, href) {
			t.Errorf("the setter changed the original URL")
		}
	}
}

func mustHref(t *testing.T, s string) string {
	u, err := Parse(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return u.Href()
}

func TestForm(t *testing.T) {
	pairs := ParseForm("a=b+c&&d=%20%zz&=e&f&%FF=%E2%82%AC")
	want := [][2]string{{"a", "b c"}, {"d", " %zz"}, {"", "e"}, {"f", ""}, {"\uFFFD", "€"}}
	if len(pairs) != len(want) {
		t.Fatalf("got %q", pairs)
	}
	for i := range want {
		if pairs[i] != want[i] {
			t.Errorf("pair %d = %q, want %q", i, pairs[i], want[i])
		}
	}
	if got := SerializeForm([][2]string{{"a b", " !'()~*-._"}, {"€", "&="}}); got != "a+b=+%21%27%28%29%7E*-._&%E2%82%AC=%26%3D" {
		t.Errorf("serialize: %s", got)
	}
}

// The standard maps non-ASCII hosts through IDNA; we refuse them (the
// broker would refuse them too), documented in docs/host-api.md.
func TestNonASCIIHostRefused(t *testing.T) {
	for _, s := range []string{"https://аpi.example.com/", "https://ex%C3%A4mple.com/"} {
		if _, err := Parse(s, nil); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
	if _, err := Parse("https://"+string(make([]byte, MaxInputBytes)), nil); err == nil {
		t.Error("an over-long input parsed")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"https://a.b/c?d#e", "http://[::1]:8/", "file:///C|/x", "a:b", "http://0x7f.1", "non-spec:/..//p"} {
		f.Add(s, "http://example.org/foo/bar")
	}
	f.Fuzz(func(t *testing.T, input, base string) {
		u, err := ParseRef(input, base)
		if err != nil {
			return
		}
		href := u.Href()
		again, err := Parse(href, nil)
		if err != nil {
			t.Fatalf("%q → %q does not reparse: %v", input, href, err)
		}
		if again.Href() != href {
			t.Fatalf("%q → %q → %q", input, href, again.Href())
		}
	})
}

// ParseRef parses input against the base URL string (empty: none), as
// new URL(input, base) does.
func ParseRef(input, base string) (*URL, error) {
	var b *URL
	if base != "" {
		var err error
		if b, err = Parse(base, nil); err != nil {
			return nil, fail("invalid base URL")
		}
	}
	return Parse(input, b)
}
