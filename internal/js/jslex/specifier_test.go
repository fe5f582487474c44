package jslex

import (
	"slices"
	"testing"
)

// TestImportCandidates pins the agreed list: a file named with one of the
// five extensions page code may import is taken as it is (.mts included:
// the compiler and the page analysis once disagreed on it); anything
// else is tried as .ts, .js, then as a directory's index.
func TestImportCandidates(t *testing.T) {
	for in, want := range map[string][]string{
		"code/a.ts":    {"code/a.ts"},
		"code/a.mts":   {"code/a.mts"},
		"code/a.js":    {"code/a.js"},
		"code/a.mjs":   {"code/a.mjs"},
		"code/a.json":  {"code/a.json"},
		"code/a":       {"code/a.ts", "code/a.js", "code/a/index.ts", "code/a/index.js"},
		"code/a.cts":   {"code/a.cts.ts", "code/a.cts.js", "code/a.cts/index.ts", "code/a.cts/index.js"},
		"code/a.tsx":   {"code/a.tsx.ts", "code/a.tsx.js", "code/a.tsx/index.ts", "code/a.tsx/index.js"},
		"code/util.v2": {"code/util.v2.ts", "code/util.v2.js", "code/util.v2/index.ts", "code/util.v2/index.js"},
		"code/a.TS":    {"code/a.TS.ts", "code/a.TS.js", "code/a.TS/index.ts", "code/a.TS/index.js"},
	} {
		if got := ImportCandidates(in); !slices.Equal(got, want) {
			t.Errorf("ImportCandidates(%q) = %q, want %q", in, got, want)
		}
	}
}
