package jspage_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// rejectedBySandbox lists the corpus files esbuild or QuickJS refuses
// (the ground truth says "does not run"): the page analysis must report
// an error on them too. Agreement either way is the property.
var rejectedBySandbox = map[string]string{
	// `get` / `set` before a line break start an accessor (no ASI
	// there): esbuild reports `Expected "(" but found "static"`.
	"class-field-no-semicolon.ts": "compile",
	// a page runs as one script (jspage.SandboxSyntax): "top-level await
	// does not run in the sandbox".
	"top-level-await.ts": "compile",
}

// knownDisagreements are corpus files the sandbox and the page analysis
// still disagree on; the test checks they still do (remove the entry
// when fixed).
var knownDisagreements = map[string]string{}

// failsAtRunTime lists the corpus files that compile and whose script
// QuickJS evaluates, but that throw when they run for want of a feature
// of QuickJS's library, not of its parser: the page analysis reads them
// (their syntax is fine) and the test checks they do fail, so that the
// list stays true.
var failsAtRunTime = map[string]string{
	// esbuild turns a v-flag literal into new RegExp(…, "v") for the
	// runner's ES2022 target; QuickJS's regexp engine refuses the set
	// subtraction when it is built.
	"regex-flag-v.js": "invalid class range",
}

// TestSyntaxCorpus: every page of testdata/syntax is compiled the way the
// runner compiles it (runner.Compile: esbuild's bundle) and run in the
// sandbox (QuickJS); the page analysis must accept exactly the pages that
// run, i.e. report no page-syntax error (not even "cannot analyse") on a
// page the sandbox runs.
func TestSyntaxCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every corpus page in the sandbox")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "syntax", "*"))
	if err != nil || len(files) < 80 {
		t.Fatalf("syntax corpus: %d files, %v", len(files), err)
	}
	sort.Strings(files)
	eng, err := sandbox.NewEngine(sandbox.Options{Spare: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for n := range rejectedBySandbox {
		if _, err := os.Stat(filepath.Join("testdata", "syntax", n)); err != nil {
			t.Errorf("rejectedBySandbox names %s: %v", n, err)
		}
	}
	runs, agree := 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel := "code/" + name
		runErr := runPage(t, eng, rel, string(src))
		read := func(r string) ([]byte, error) {
			if r == rel {
				return src, nil
			}
			return nil, os.ErrNotExist
		}
		page := jspage.AnalyzeBundles([]string{rel}, read)[0]
		var checkErr string
		for _, e := range page.Errors {
			if !strings.Contains(e.Message, "import \"./nothing\"") { // type-only import of a missing file: erased
				checkErr = e.Message
				break
			}
		}
		_, wantReject := rejectedBySandbox[name]
		if want, ok := knownDisagreements[name]; ok {
			if !strings.Contains(runErr, want) || checkErr != "" {
				t.Errorf("%s: listed as a known disagreement (%s), now sandbox %q, analysis %q", name, want, runErr, checkErr)
			}
			t.Logf("%s: known disagreement: sandbox %q, the page analysis accepts it", name, runErr)
			continue
		}
		if want, ok := failsAtRunTime[name]; ok {
			if !strings.Contains(runErr, want) {
				t.Errorf("%s: listed as failing at run time with %q, got %q", name, want, runErr)
			}
			if checkErr != "" {
				t.Errorf("%s: valid syntax, but the page analysis reports: %s", name, checkErr)
			}
			agree++
			continue
		}
		switch {
		case runErr == "" && wantReject:
			t.Errorf("%s: runs in the sandbox but is listed as rejected", name)
		case runErr != "" && !wantReject:
			t.Errorf("%s: the sandbox rejects it (%s); list it in rejectedBySandbox or fix the page", name, runErr)
		case runErr == "" && checkErr != "":
			t.Errorf("%s: runs in the sandbox, but the page analysis reports: %s", name, checkErr)
		case runErr != "" && checkErr == "":
			t.Errorf("%s: the sandbox rejects it (%s), the page analysis accepts it", name, runErr)
		default:
			agree++
		}
		if runErr == "" {
			runs++
		}
	}
	t.Logf("%d syntax files: %d run in the sandbox, %d agree with the page analysis", len(files), runs, agree)
}

// runPage compiles and runs one page; "" when it ran and returned.
func runPage(t *testing.T, eng *sandbox.Engine, rel, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(src), 0o644)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"t","version":"1.0.0","tools":[]}`), 0o644)
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := runner.Compile(p, rel)
	if err != nil {
		return "compile: " + err.Error()
	}
	out := eng.Run(context.Background(), sandbox.Job{Name: runner.ScriptName, Code: prog.Code, Timeout: 10 * time.Second})
	if !out.OK {
		return "run: " + out.Err.Kind + ": " + out.Err.Message
	}
	return ""
}
