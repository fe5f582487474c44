package rules

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Applying every "Remove the invisible characters" fix leaves text that
// text-hidden-characters no longer flags, in plugin.json and in a module,
// and changes nothing else of what the text shows.
func TestHiddenCharacterFixesRemoveThem(t *testing.T) {
	for _, name := range []string{"text-hidden-classes", "text-native"} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(pluginsDir, name)
			dir := t.TempDir()
			copyTree(t, src, dir)
			p, ds := checkDir(t, dir)
			edits := map[string][]checker.Edit{}
			n := 0
			for _, d := range ds {
				if d.Code != TextHiddenCharacters.Code {
					continue
				}
				n++
				for _, f := range d.Fixes {
					edits[d.File] = append(edits[d.File], f.Edits...)
				}
			}
			if n == 0 {
				t.Fatal("no text-hidden-characters diagnostics")
			}
			for file, es := range edits {
				f := fileOf(p, file)
				b := append([]byte{}, f.Text...)
				sort.Slice(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
				for _, e := range es {
					b = append(b[:e.Span.Start:e.Span.Start], append([]byte(e.NewText), b[e.Span.End:]...)...)
				}
				if err := os.WriteFile(filepath.Join(dir, file), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, after := checkDir(t, dir)
			left := 0
			for _, d := range after {
				if d.Code == TextHiddenCharacters.Code {
					left++
					if len(d.Fixes) > 0 {
						t.Errorf("after the fixes: %s", d.Message)
					}
				}
			}
			// Only a string built by an expression has no fix (text-native's FIND).
			if name == "text-hidden-classes" && left != 0 || name == "text-native" && left != 1 {
				t.Errorf("%d text-hidden-characters left after the fixes", left)
			}
		})
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDecodeLiteral(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`"a\u200bb"`, "a\u200bb"},
		{`"\ud83d\ude00!"`, "😀!"},
		{`'it\'s'`, "it's"},
		{"`tmpl\\u{E0041}`", "tmpl\U000E0041"},
		{`"\x41\n\t\\"`, "A\n\t\\"},
		{`"é字"`, "é字"},
	} {
		got, offs, ok := decodeLiteral([]byte(c.raw))
		if !ok || got != c.want {
			t.Errorf("decodeLiteral(%s) = %q, %v; want %q", c.raw, got, ok, c.want)
			continue
		}
		if len(offs) != len(got)+1 || offs[len(got)] != len(c.raw)-1 {
			t.Errorf("decodeLiteral(%s): offsets %v", c.raw, offs)
		}
		// Every decoded byte points at what wrote it: an escape or itself.
		for i, o := range offs[:len(got)] {
			start := i
			for start > 0 && got[start]&0xC0 == 0x80 {
				start--
			}
			r := []rune(got[start:])[0]
			if c.raw[o] != '\\' && !strings.HasPrefix(c.raw[o:], string(r)) {
				t.Errorf("decodeLiteral(%s): byte %d maps to %d (%q)", c.raw, i, o, c.raw[o:])
			}
		}
	}
	for _, bad := range []string{"`a${b}`", `"unterminated`, `x`, `"\u12"`} {
		if _, _, ok := decodeLiteral([]byte(bad)); ok {
			t.Errorf("decodeLiteral(%s) accepted", bad)
		}
	}
}
