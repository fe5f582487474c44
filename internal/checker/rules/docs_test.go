package rules

import (
	"os"
	"regexp"
	"testing"
)

// docs/rules.md is generated from the rules; a stale copy fails here.
func TestDocsUpToDate(t *testing.T) {
	want := Markdown()
	got, err := os.ReadFile("../../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("docs/rules.md is stale: run `go generate ./internal/checker/rules` (or `go run ./scripts/gendocs > docs/rules.md`)")
	}
}

// Every rule documents itself fully, with a stable code in kebab case,
// and codes are unique.
func TestRulesAreDocumented(t *testing.T) {
	code := regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, r := range All() {
		if !r.Reports() {
			if r.Refine == nil || r.Code == "" || r.Doc == "" {
				t.Errorf("%q: a pass that reports nothing needs Refine, a Code and a Doc", r.Code)
			}
			continue
		}
		if !code.MatchString(r.Code) {
			t.Errorf("bad code %q", r.Code)
		}
		if seen[r.Code] {
			t.Errorf("duplicate code %q", r.Code)
		}
		seen[r.Code] = true
		if r.Title == "" || r.Doc == "" || r.Before == "" || r.After == "" || r.Lang == "" || r.Run == nil || r.Severity == 0 {
			t.Errorf("%s: Title, Doc, Before, After, Lang, Severity and Run are all required", r.Code)
		}
	}
}
