package jsmodule

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestSyntaxCorpus: every module of testdata/syntax is valid ESM for
// esbuild (the ground truth: no syntax error in a transform), and
// ReadExports must read it: no syntax error, not unreadable, its tools
// found (an ESM module's; a .cjs file must be read as CommonJS).
func TestSyntaxCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "syntax", "*.?js"))
	if len(files) < 5 {
		t.Fatalf("syntax corpus: %d files", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cjs := filepath.Ext(f) == ".cjs"
		format := api.FormatESModule
		if cjs {
			format = api.FormatCommonJS
		}
		res := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderJS, Format: format, Target: api.ESNext, LogLevel: api.LogLevelSilent})
		if len(res.Errors) > 0 {
			t.Errorf("%s: esbuild rejects it: %s", f, res.Errors[0].Text)
			continue
		}
		m := ReadExports(src)
		switch {
		case len(m.Errors) > 0:
			t.Errorf("%s: valid for esbuild, ReadExports reports %s", f, m.Errors[0].Message)
		case m.Unreadable != nil:
			t.Errorf("%s: valid for esbuild, ReadExports cannot read it: %s", f, m.Unreadable.Reason)
		case cjs && m.Kind != CommonJS:
			t.Errorf("%s: read as %v, not CommonJS", f, m.Kind)
		case !cjs && (m.Tools == nil || len(m.Tools.Entries) == 0):
			t.Errorf("%s: no tools found", f)
		}
	}
}
