package fetchurl

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/weburl"
)

// TestDecidedOnTheWHATWGParse: over every input of the WHATWG URL test
// data (without a base) and of testdata/urls.json, a URL fetchurl admits
// (or refuses only for its scheme) names the host the sandbox's URL
// (internal/weburl) reads, and Target.URL is that URL's serialization:
// the checker, the broker and the page agree by construction.
func TestDecidedOnTheWHATWGParse(t *testing.T) {
	var inputs []string
	var wpt []any
	b, err := os.ReadFile("../weburl/testdata/urltestdata.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &wpt); err != nil {
		t.Fatal(err)
	}
	for _, c := range wpt {
		if m, ok := c.(map[string]any); ok {
			if base, _ := m["base"].(string); base == "" || base == "about:blank" {
				inputs = append(inputs, m["input"].(string))
			}
		}
	}
	var ours []any
	b, err = os.ReadFile("testdata/urls.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ours); err != nil {
		t.Fatal(err)
	}
	for _, c := range ours {
		if m, ok := c.(map[string]any); ok {
			inputs = append(inputs, m["url"].(string))
		}
	}
	admitted := 0
	for _, in := range inputs {
		tg, r := Parse(in)
		if r != nil && r.Reason != NotHTTPS {
			continue
		}
		w, err := weburl.Parse(in, nil)
		if err != nil {
			t.Errorf("%q: fetchurl admits it, the WHATWG parser refuses it: %v", in, err)
			continue
		}
		admitted++
		if tg.Host != whatwgKey(w) {
			t.Errorf("%q: host %q, the sandbox's URL reads %q", in, tg.Host, whatwgKey(w))
		}
		// The fragment is never sent (and net/url drops an empty one).
		if tg.URL == nil || noFragment(tg.URL.String()) != noFragment(w.Href()) {
			t.Errorf("%q: Target.URL %v, the sandbox's URL serializes %q", in, tg.URL, w.Href())
		}
	}
	if admitted < 20 {
		t.Fatalf("only %d inputs admitted: the test checks too little", admitted)
	}
}

func noFragment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}
