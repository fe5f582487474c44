package runner

import (
	"path/filepath"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// TestRealisticPagesUseURL: exchange-rate.ts builds its URL with new URL()
// at the top level and relative to a base; it ran into "URL is not
// defined" before the sandbox had web globals.
func TestRealisticPagesUseURL(t *testing.T) {
	p, err := checker.Load(checker.OSFS{}, filepath.Join("..", "..", "testdata", "plugins", "page-realistic"))
	if err != nil {
		t.Fatal(err)
	}
	rec := runTool(t, p, "exchangeRate", `{"to":"usd"}`)
	if !rec.OK || string(rec.Result) != `{"type":"stat","value":1.08,"label":"EUR → USD"}` {
		t.Fatalf("%s %+v", rec.Result, rec.Error)
	}
	if len(rec.Fetches) != 1 || rec.Fetches[0].URL != "https://api.frankfurter.app/latest?from=EUR" {
		t.Errorf("fetches %+v", rec.Fetches)
	}
}
