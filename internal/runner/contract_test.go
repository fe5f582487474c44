package runner

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

var updateRecords = flag.Bool("update", false, "rewrite testdata/records/*.json from the current output")

func contractPlugin(t *testing.T) *checker.Plugin {
	t.Helper()
	p, err := checker.Load(checker.OSFS{}, filepath.Join("testdata", "contract"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var volatile = regexp.MustCompile(`"(durationMs|ms|memoryPeakBytes)": [0-9.]+`)

// normalized is a record as golden text: the call id and timings are
// the only parts that change from run to run.
func normalized(t *testing.T, rec *record.Record) []byte {
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
// (go test ./internal/runner -run TestGoldenRecords -update rewrites them).
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
	diags := checker.Run(p, rules.All(), nil, nil)
	var d *checker.Diagnostic
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
	pos := checker.NewFile("code/refused.ts", text).Position(d.Span.Start)
	rec := runTool(t, p, "refused", "")
	if rec.OK || rec.Error == nil || rec.Error.File != "code/refused.ts" || rec.Error.Line != pos.Line+1 || rec.Error.Column != pos.Col+1 {
		t.Fatalf("check says %d:%d, the run %+v", pos.Line+1, pos.Col+1, rec.Error)
	}
	if !strings.HasPrefix(rec.Error.Stack, "    at refused (code/refused.ts:4:21)") {
		t.Errorf("stack %q", rec.Error.Stack)
	}
}

// TestStackFramesAtCallees: an error thrown two helpers deep in
// code/lib/*.ts has every frame in its own .ts file, each at the callee
// of the call that frame was making (lines.map, not map; loadPrices, not
// the await before it), and a refused fetch inside a lib helper puts the
// page's frame at the helper's name.
func TestStackFramesAtCallees(t *testing.T) {
	p := contractPlugin(t)
	frame := regexp.MustCompile(`at (\S+) \(([^:()]+):(\d+):(\d+)\)`)
	cases := []struct {
		tool string
		want []string // name@file:text at the position
	}{
		{"deepError", []string{
			"toCents@code/lib/parse.ts:new RangeError",
			"parseLine@code/lib/parse.ts:toCents(price)",
			"<anonymous>@code/lib/fetch-list.ts:parseLine(l)",
			"loadPrices@code/lib/fetch-list.ts:lines.map(",
			"deepError@code/deep-error.ts:loadPrices(",
		}},
		{"deepFetch", []string{
			"fetchPrices@code/lib/fetch-list.ts:http.fetch(url",
			"deepFetch@code/deep-fetch.ts:fetchPrices(",
		}},
	}
	for _, c := range cases {
		rec := runTool(t, p, c.tool, "")
		if rec.OK || rec.Error == nil {
			t.Fatalf("%s: %+v", c.tool, rec)
		}
		ms := frame.FindAllStringSubmatch(rec.Error.Stack, -1)
		if len(ms) != len(c.want) {
			t.Fatalf("%s: stack %q, want %d frames", c.tool, rec.Error.Stack, len(c.want))
		}
		for i, m := range ms {
			text, err := os.ReadFile(filepath.Join("testdata", "contract", m[2]))
			if err != nil {
				t.Fatal(err)
			}
			f := checker.NewFile(m[2], text)
			line, col := atoi(t, m[3]), atoi(t, m[4])
			off := f.Offset(line-1, col-1)
			name, want, _ := strings.Cut(c.want[i], "@")
			file, snippet, _ := strings.Cut(want, ":")
			if m[1] != name || m[2] != file || !strings.HasPrefix(string(text[off:]), snippet) {
				t.Errorf("%s frame %d: %s at %s:%d:%d (%q), want %s", c.tool, i, m[1], m[2], line, col, string(text[off:min(len(text), off+20)]), c.want[i])
			}
		}
		if rec.Error.File != ms[0][2] || rec.Error.Line != atoi(t, ms[0][3]) || rec.Error.Column != atoi(t, ms[0][4]) {
			t.Errorf("%s: the record's position %s:%d:%d is not the top frame's", c.tool, rec.Error.File, rec.Error.Line, rec.Error.Column)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
