package checker

import (
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

func TestWhyNotRunnable(t *testing.T) {
	root, serr := jsonpos.Parse([]byte(`{"name":"b","version":"1.0.0","sdk":1,
	  "tools":[{"name":"lookupBook","page":"code/a"},{"name":"searchBooks","page":"code/b"}],
	  "nativeTools":[{"module":"native/tg.js","names":["tg.send"]}]}`))
	if serr != nil {
		t.Fatal(serr)
	}
	p := &Plugin{Manifest: NewManifest(root)}
	for _, c := range []struct{ name, want string }{
		{"lookupBook", ""},
		{"tg.send", `"tg.send" is a native tool (native/tg.js) in the full-trust lane`},
		{"tg.send", "review card"},
		{"lookupBok", `no function tool "lookupBok" in this plugin (did you mean "lookupBook"?); its function tools are lookupBook, searchBooks`},
		{"fn.searchBooks", `run it by its manifest name "searchBooks"`},
		{"zzz", `no function tool "zzz" in this plugin; its function tools are`},
	} {
		got := WhyNotRunnable(p.Manifest, c.name)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("WhyNotRunnable(%q) = %q, want it to contain %q", c.name, got, c.want)
		}
	}
}
