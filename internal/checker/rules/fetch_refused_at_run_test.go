package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// TestFetchRefusedAtRun: a refused fetch of the last run is reported on
// the page and on the tool, with the fix that adds the host; applied, the
// same runs report nothing. A host the manifest lists, a refusal for
// another reason, a tool not in the manifest and a host the static rule
// reports are not reported; without runs the rule is silent (check).
func TestFetchRefusedAtRun(t *testing.T) {
	p, err := checker.Load(nil, filepath.Join("..", "..", "..", "testdata", "example", "books"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(p *checker.Plugin, runs map[string]checker.ToolRun) []checker.Diagnostic {
		cfg := checker.DefaultConfig()
		cfg.Runs = runs
		return codes(checker.Run(p, All(), cfg, nil), FetchRefusedAtRun.Code)
	}
	if ds := run(p, nil); len(ds) != 0 {
		t.Fatalf("without runs: %v", ds)
	}
	runs := map[string]checker.ToolRun{
		"lookupBook": {Fetches: []checker.RunFetch{
			{URL: "https://api.openlibrary.org/isbn/1.json", Host: "api.openlibrary.org"},
			{URL: "https://API.openlibrary.org/x", Host: "api.openlibrary.org", Refused: "not-allowed"},
			{URL: "https://books.example.org/isbn/1.json", Host: "books.example.org", Refused: "not-allowed"},
			{URL: "https://books.example.org/isbn/2.json", Host: "books.example.org", Refused: "not-allowed"},
			{URL: "https://big.example.org/", Host: "big.example.org", Refused: "limit"},
		}},
		"noSuchTool": {Fetches: []checker.RunFetch{{URL: "https://x.example.org/", Host: "x.example.org", Refused: "not-allowed"}}},
	}
	ds := run(p, runs)
	if len(ds) != 2 || ds[0].File != "code/lookup-book.ts" || ds[1].File != checker.ManifestName {
		t.Fatalf("want one diagnostic on the page and one on the tool: %v", ds)
	}
	for _, d := range ds {
		if !strings.Contains(d.Message, "books.example.org") || len(d.Fixes) != 1 || len(d.Related) != 1 {
			t.Errorf("%s: %s, %d fixes, related %v", d.File, d.Message, len(d.Fixes), d.Related)
		}
	}
	changed, err := fixes.Apply(p, ds[0].Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := checker.Load(&checker.Overlay{Files: map[string][]byte{p.Abs(checker.ManifestName): changed[checker.ManifestName]}}, p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if ds := run(fixed, runs); len(ds) != 0 {
		t.Errorf("after the fix: %v", ds)
	}
	// The static rule reports a host it reads in the page: the run adds nothing.
	page := p.Abs("code/lookup-book.ts")
	f, _ := p.ReadFile("code/lookup-book.ts")
	static, err := checker.Load(&checker.Overlay{Files: map[string][]byte{page: append(append([]byte(nil), f.Text...), "\nhttp.fetch(\"https://books.example.org/x\");\n"...)}}, p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if ds := run(static, runs); len(ds) != 0 {
		t.Errorf("a host the static rule reports: %v", ds)
	}
	if ds := codes(checker.Run(static, All(), nil, nil), FetchUndeclaredDomain.Code); len(ds) == 0 || !strings.Contains(ds[0].Message, "books.example.org") {
		t.Errorf("the static rule does not report the host: %v", ds)
	}
}
