package runner

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/rules"
)

var updateRecords = flag.Bool("update", false, "rewrite testdata/records/*.json from the current output")

func contractPlugin(t *testing.T) *analysis.Plugin {
	t.Helper()
	p, err := analysis.Load(analysis.OSFS{}, filepath.Join("testdata", "contract"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var volatile = regexp.MustCompile(`"(durationMs|ms|memoryPeakBytes)": [0-9.]+`)

// normalized is a record as golden text: the call id and timings are
// the only parts that change from run to run.
func normalized(t *testing.T, rec *Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rec); err != nil {
		t.Fatal(err)
	}
	out := volatile.ReplaceAll(buf.Bytes(), []byte(`"$1": 0`))
	return regexp.MustCompile(`"claim": "(fn\.[A-Za-z]+):[0-9a-f]{12}"`).ReplaceAll(out, []byte(`"claim": "$1:<id>"`))
}

// TestGoldenRecords: the run records of the input, result, position and
// request-preview cases, compared whole with testdata/records/<case>.json
// (go test ./runner -run TestGoldenRecords -update rewrites them).
func TestGoldenRecords(t *testing.T) {
	p := contractPlugin(t)
	cases := []struct{ name, tool, input string }{
		{"input-ok", "forecast", `{"city":"Oslo","days":2}`},
		{"input-missing-and-unknown", "forecast", `{"town":"Oslo"}`},
		{"input-wrong-types", "forecast", `{"city":"","days":"3"}`},
		{"input-null", "forecast", ``},
		{"result-map", "mapResult", ``},
		{"result-class-getters", "classResult", ``},
		{"result-arrow-body", "arrowResult", ``},
		{"stack-lib-helpers", "deepError", ``},
		{"position-lib-fetch", "deepFetch", ``},
		{"position-refused", "refused", ``},
		{"position-no-fixture", "noFixture", `{"id":"a b"}`},
		{"request-preview", "webhook", ``},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := normalized(t, runTool(t, p, c.tool, c.input))
			if strings.Contains(string(got), "hk-secret-8675309") {
				t.Fatalf("secret in the record:\n%s", got)
			}
			file := filepath.Join("testdata", "records", c.name+".json")
			if *updateRecords {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update and read the result)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("record differs from %s:\n%s", file, got)
			}
		})
	}
}

// TestHostErrorAtCheckPosition: a refused fetch fails the run at the
// http.fetch call, at the line and column where check reports that call.
func TestHostErrorAtCheckPosition(t *testing.T) {
	p := contractPlugin(t)
	diags := analysis.Run(p, rules.All(), nil, nil)
	var d *analysis.Diagnostic
	for i := range diags {
		if diags[i].Code == "fetch-undeclared-domain" && diags[i].File == "code/refused.ts" {
			d = &diags[i]
		}
	}
	if d == nil {
		t.Fatalf("check did not report the fetch: %+v", diags)
	}
	text, err := os.ReadFile(filepath.Join("testdata", "contract", "code", "refused.ts"))
	if err != nil {
		t.Fatal(err)
	}
	pos := analysis.NewFile("code/refused.ts", text).Position(d.Span.Start)
	rec := runTool(t, p, "refused", "")
	if rec.OK || rec.Error == nil || rec.Error.File != "code/refused.ts" || rec.Error.Line != pos.Line+1 || rec.Error.Column != pos.Col+1 {
		t.Fatalf("check says %d:%d, the run %+v", pos.Line+1, pos.Col+1, rec.Error)
	}
	if !strings.HasPrefix(rec.Error.Stack, "    at refused (code/refused.ts:4:21)") {
		t.Errorf("stack %q", rec.Error.Stack)
	}
}
