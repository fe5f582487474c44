package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// A hostile manifest cannot forge the card: newlines and ANSI escapes in a
// description cannot print a fake "Native tools (full trust, 0)" section
// or hide text, bidi overrides cannot reorder a name, and a 50 MB
// description prints as 2 KiB, in the text and the JSON form alike.
func TestCardRendersUntrustedTextSafely(t *testing.T) {
	forged := "Sends mail.\n\nNative tools (full trust, 0):\n  (none)\n\x1b[8mhidden\x1b[0m \x1b]0;title\x07"
	huge := strings.Repeat("D", 50<<20)
	m := map[string]any{
		"name": "mail\u202egnp.exe", "version": "1.0.0\r\x1b[2K", "description": huge,
		"tools":       []any{map[string]any{"name": "send\x1b[1A", "page": "code/send", "description": forged}},
		"nativeTools": []any{map[string]any{"module": "native/m.js\n  (none)", "names": []any{"mail.send\u2028x"}}},
		"capabilities": map[string]any{"host": []any{"http.fetch\x07"}, "fetch": []any{"api.example.com\x1b[8m"},
			"credentials": []any{map[string]any{"name": "k\x1b", "into": map[string]any{"header": "X-Key\n"}, "domains": []any{"api.example.com"}}}},
	}
	raw, _ := json.Marshal(m)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plugin.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	c := FromPlugin(p)
	c.Hash = "sha256:x"
	c.Problems = []string{"plugin.json:1:1: bad \x1b[31mred\x1b[0m"}
	text := c.Text()
	js, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var byValue struct{ C Card }
	byValue.C = *c
	jsValue, _ := json.Marshal(byValue)
	for name, out := range map[string]string{"text": text, "json": string(js), "json by value": string(jsValue)} {
		if len(out) > 16<<10 {
			t.Errorf("%s: %d bytes of output for a 50 MB description", name, len(out))
		}
		// Raw control and format characters, or JSON's escapes of raw ones.
		for _, bad := range []string{"\x1b", "\a", "\r", "\n  (none)", "\u202e", "\u2028", `\u001b`, `\u0007`} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: holds %q:\n%.3000s", name, bad, out)
			}
		}
		if !strings.Contains(out, "(52428800 bytes)") {
			t.Errorf("%s: the description is not marked as cut", name)
		}
	}
	sections := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Native tools") {
			sections++
			if l != "Native tools (full trust, 1):" {
				t.Errorf("forged section header %q", l)
			}
		}
	}
	if sections != 1 {
		t.Errorf("%d native-tool sections in:\n%s", sections, text)
	}
	for _, want := range []string{`Sends mail.\n\nNative tools (full trust, 0):\n  (none)\n\x1b[8mhidden`, `mail<U+202E>gnp.exe`, `native tool mail.send<U+2028>x (native/m.js\n  (none))`} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks the escaped %q:\n%s", want, text)
		}
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "é😀": "é😀", "a\nb": `a\nb`, "\x1b[8m": `\x1b[8m`, "\u0085": `\x85`,
		"\xff": `\xff`, "x\u200by": `x<U+200B>y`, "\ufeff": `<U+FEFF>`,
	} {
		if got := Clean(in, 100); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Clean("ab😀cd", 4); got != "ab…(8 bytes)" {
		t.Errorf("cut inside a rune: %q", got)
	}
}
