package ide

import (
	"bytes"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// completionManifest is the manifest completion filters against. While an
// entry is being typed the document does not parse, and the checked
// manifest stops at the cursor: a domain declared further down the same
// array would be offered again. So when the text does not parse, the
// entry at the cursor is closed in a few likely ways (an unterminated
// string, a missing comma) and the first repair that parses is read;
// when none does, the checked manifest is used.
func completionManifest(m *checker.Manifest, text []byte, off int) *checker.Manifest {
	if off < 0 || off > len(text) {
		return m
	}
	if _, err := jsonpos.Parse(text); err == nil {
		return m
	}
	lineEnd := off + bytes.IndexByte(text[off:], '\n')
	if lineEnd < off {
		lineEnd = len(text)
	}
	rest := bytes.TrimRight(text[off:lineEnd], " \t\r")
	var repairs [][]byte
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	repairs = append(repairs,
		join(text[:off], []byte(`",`), text[lineEnd:]),       // "ap|⏎ "next"
		join(text[:off], []byte(`"`), text[lineEnd:]),        // "ap|⏎ ]
		join(text[:off], rest, []byte(","), text[lineEnd:]),  // ""|⏎ "next" (no comma)
		join(text[:off], []byte(`"",`), text[lineEnd:]),      // |⏎ "next" (nothing typed)
		join(text[:off], []byte(`""`), rest, text[lineEnd:]), // |, "next"
	)
	for _, r := range repairs {
		if root, err := jsonpos.Parse(r); err == nil && root != nil {
			return checker.NewManifest(root)
		}
	}
	return m
}
