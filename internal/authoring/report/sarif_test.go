package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/report"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

// validatorDir holds the npm packages the SARIF tests use (package.json and
// its lock); scripts/test.sh runs npm ci there.
const validatorDir = "testdata/sarif-validator"

// sarifTools are the installed validators, as absolute paths.
type sarifTools struct {
	schema    string // the OASIS SARIF 2.1.0 JSON schema (draft-07)
	multitool string // Microsoft's Sarif.Multitool binary
	config    string // its configuration (multitool.xml, committed)
}

func findSARIFTools(t *testing.T) sarifTools {
	t.Helper()
	dir, err := filepath.Abs(validatorDir)
	if err != nil {
		t.Fatal(err)
	}
	nm := filepath.Join(dir, "node_modules")
	platform, exe := runtime.GOOS, ""
	if platform == "windows" {
		platform, exe = "win32", ".exe"
	}
	tools := sarifTools{
		schema:    filepath.Join(nm, "@datadog", "datadog-ci-plugin-sarif", "dist", "json-schema", "sarif-schema-2.1.0.json"),
		multitool: filepath.Join(nm, "@microsoft", "sarif-multitool-"+platform, "Sarif.Multitool"+exe),
		config:    filepath.Join(dir, "multitool.xml"),
	}
	for _, f := range []string{tools.schema, tools.multitool, tools.config} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("SARIF validator missing: %v\nThe validators are npm packages: run ./scripts/test.sh "+
				"(it runs npm ci in internal/authoring/report/%s; CI does this too).", err, validatorDir)
		}
	}
	return tools
}

// compileSARIFSchema compiles the OASIS schema offline: every URL the
// compiler would load is refused, so a $ref outside the file fails loudly
// instead of reaching the network.
func compileSARIFSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Schema string `json:"$schema"`
		ID     string `json:"$id"`
		Title  string `json:"title"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	// Make sure the package still ships the official schema, not a variant.
	if head.Schema != "http://json-schema.org/draft-07/schema#" ||
		!strings.Contains(head.ID, "oasis-tcs/sarif-spec") || !strings.HasSuffix(head.ID, "/sarif-schema-2.1.0.json") ||
		head.Title != "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema" {
		t.Fatalf("%s is not the OASIS SARIF 2.1.0 schema: $schema %q, $id %q, title %q", path, head.Schema, head.ID, head.Title)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("refusing to load %s: the SARIF schema must compile offline", s)
	}
	if err := c.AddResource(head.ID, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(head.ID)
	if err != nil {
		t.Fatalf("compiling %s: %v", path, err)
	}
	return s
}

// schemaError is one leaf error of a validation.
type schemaError struct {
	at      string // instance location (JSON pointer)
	keyword string // the failing keyword: "enum", "required", "format", …
	message string
}

func (e schemaError) String() string { return fmt.Sprintf("%s: %s [%s]", e.at, e.message, e.keyword) }

// schemaErrors validates a log and returns its leaf errors; none when the
// log is valid.
func schemaErrors(t *testing.T, s *jsonschema.Schema, log []byte) []schemaError {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(log))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("SARIF output is not JSON: %v", err)
	}
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("validating: %v", err)
	}
	var out []schemaError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			kw := e.KeywordLocation[strings.LastIndexByte(e.KeywordLocation, '/')+1:]
			out = append(out, schemaError{e.InstanceLocation, kw, e.Message})
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

func joinErrors[E fmt.Stringer](es []E) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString("\n\t" + e.String())
	}
	return b.String()
}

// sarifCase is one `plugin-lsp check --format sarif DIR…` run; dirs are
// relative to the repository root, where the test runs the checker so
// that the URIs look as they do in CI. With copyAs, the one dir is copied
// to a temporary directory of that name and checked there, for URIs that
// need escaping.
type sarifCase struct {
	name      string
	dirs      []string
	copyAs    string
	multitool bool // also validated by Sarif.Multitool (each file costs it ~0.5 s)
}

var sarifCases = []sarifCase{
	{name: "page-hosts", dirs: []string{"testdata/plugins/page-hosts"}, multitool: true},
	{name: "native-multi-file", dirs: []string{"testdata/plugins/native-multi-file"}},
	{name: "native-syntax-error", dirs: []string{"testdata/plugins/native-syntax-error"}},
	{name: "manifest-kitchen-sink", dirs: []string{"testdata/plugins/manifest-kitchen-sink"}},
	{name: "manifest-truncated", dirs: []string{"testdata/plugins/manifest-truncated"}},
	{name: "manifest-unicode", dirs: []string{"testdata/plugins/manifest-unicode"}},
	{name: "books", dirs: []string{"testdata/example/books"}, multitool: true}, // no results
	{name: "odd-names", dirs: []string{"testdata/plugins/native-multi-file"}, copyAs: "odd dir #1 ü%20+[x]", multitool: true},
	// Every plugin in one log: a superset of the single-plugin logs' results.
	{name: "all", dirs: []string{"testdata/plugins", "testdata/example"}, multitool: true},
}

// testVersion stands for a release's version: "dev" (a build without
// -ldflags) draws the multitool's SARIF2005 warning, not numeric.
const testVersion = "0.1.0"

// writeSARIFLogs runs the checker for every case (from the repository
// root) and returns each case's log and its number of diagnostics.
func writeSARIFLogs(t *testing.T) (logs map[string][]byte, diags map[string]int) {
	t.Helper()
	t.Chdir(filepath.Join("..", "..", ".."))
	logs, diags = map[string][]byte{}, map[string]int{}
	for _, c := range sarifCases {
		var dirs []string
		for _, d := range c.dirs {
			if c.copyAs != "" {
				dst := filepath.Join(t.TempDir(), c.copyAs)
				if err := os.CopyFS(dst, os.DirFS(d)); err != nil {
					t.Fatal(err)
				}
				d = dst
			}
			found, err := checker.FindPlugins(d)
			if err != nil || len(found) == 0 {
				t.Fatalf("%s: no plugin found in %s: %v", c.name, d, err)
			}
			dirs = append(dirs, found...)
		}
		results := checker.CheckAll(dirs, checker.DefaultConfig(), rules.All())
		for _, r := range results {
			if r.Err != nil {
				t.Fatalf("%s: %s: %v", c.name, r.Dir, r.Err)
			}
			diags[c.name] += len(r.Diags)
		}
		var b bytes.Buffer
		if err := report.WriteSARIF(&b, results, testVersion); err != nil {
			t.Fatalf("%s: WriteSARIF: %v", c.name, err)
		}
		logs[c.name] = b.Bytes()
	}
	return logs, diags
}

// mutate returns log changed by edit, for the negative controls.
func mutate(t *testing.T, log []byte, edit func(run map[string]any)) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(log, &v); err != nil {
		t.Fatal(err)
	}
	edit(v["runs"].([]any)[0].(map[string]any))
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func result(run map[string]any, i int) map[string]any {
	return run["results"].([]any)[i].(map[string]any)
}

// The SARIF that check --format sarif prints is valid against the
// official OASIS SARIF 2.1.0 schema and passes Microsoft's SARIF validator
// with its SARIF, GitHub and GitHub Advanced Security rules; deliberately
// broken copies of the same logs fail both, so the validators do check.
func TestSARIFValidates(t *testing.T) {
	tools := findSARIFTools(t)
	schema := compileSARIFSchema(t, tools.schema)
	logs, diags := writeSARIFLogs(t)

	for _, c := range sarifCases {
		var log struct {
			Runs []struct {
				Results []json.RawMessage `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(logs[c.name], &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("%s: %v, %d runs", c.name, err, len(log.Runs))
		}
		if got := len(log.Runs[0].Results); got != diags[c.name] {
			t.Errorf("%s: %d SARIF results for %d diagnostics", c.name, got, diags[c.name])
		}
		if errs := schemaErrors(t, schema, logs[c.name]); len(errs) > 0 {
			t.Errorf("%s: SARIF output is not valid against the SARIF 2.1.0 schema:%s", c.name, joinErrors(errs))
		}
	}
	if diags["page-hosts"] == 0 || diags["all"] < 100 {
		t.Fatalf("too few diagnostics to test anything: %v", diags)
	}

	// Negative controls: the schema rejects what it must, and only that.
	base := logs["page-hosts"]
	for _, bad := range []struct {
		name string
		edit func(run map[string]any)
		want []string // instance location [keyword]
	}{
		{"unknown level", func(run map[string]any) { result(run, 0)["level"] = "fatal" },
			[]string{"/runs/0/results/0/level [enum]"}},
		{"line 0", func(run map[string]any) {
			result(run, 0)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)["startLine"] = 0
		}, []string{"/runs/0/results/0/locations/0/physicalLocation/region/startLine [minimum]"}},
		{"no driver name", func(run map[string]any) {
			delete(run["tool"].(map[string]any)["driver"].(map[string]any), "name")
		}, []string{"/runs/0/tool/driver [required]"}},
		{"helpUri not a URI", func(run map[string]any) {
			run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)[0].(map[string]any)["helpUri"] = "not a uri"
		}, []string{"/runs/0/tool/driver/rules/0/helpUri [format]"}},
	} {
		errs := schemaErrors(t, schema, mutate(t, base, bad.edit))
		var got []string
		for _, e := range errs {
			got = append(got, e.at+" ["+e.keyword+"]")
		}
		if !slices.Equal(got, bad.want) {
			t.Errorf("schema control %q: got%s\nwant %q", bad.name, joinErrors(errs), bad.want)
		}
	}

	// Microsoft's validator, on every log at once plus one broken copy.
	dir := t.TempDir()
	var files []string
	for _, c := range sarifCases {
		if !c.multitool {
			continue
		}
		files = append(files, filepath.Join(dir, c.name+".sarif"))
		if err := os.WriteFile(files[len(files)-1], logs[c.name], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	broken := filepath.Join(dir, "broken.sarif")
	files = append(files, broken)
	if err := os.WriteFile(broken, mutate(t, base, func(run map[string]any) {
		result(run, 0)["ruleIndex"] = 999
		delete(result(run, 1)["message"].(map[string]any), "text")
	}), 0o644); err != nil {
		t.Fatal(err)
	}
	// The broken copy goes last: the multitool (5.7.0) silently skips a
	// log it cannot deserialize (an unknown enum value such as level
	// "info" does it) and every file after it, still printing "Analysis
	// completed successfully." and exiting 0; the control then draws nothing.
	found := runMultitool(t, tools, dir, files)
	var got []string
	for _, f := range found[broken] {
		got = append(got, f.level+" "+f.rule+" "+f.path)
	}
	want := []string{ // in the order the multitool prints them
		"error JSON1017 runs[0].results[1].message", // message without text: not "text" nor "id"
		"error GH1015 runs[0].results[1].message",   // … nor what GitHub requires
		"error GH1017 runs[0].results[1].message",
		"error GH2012 runs[0].results[1].message",
		"error SARIF1009 runs[0].results[0]", // ruleIndex out of range
	}
	if !slices.Equal(got, want) {
		hint := ""
		if len(got) == 0 {
			hint = "\n(nothing at all: the multitool stopped at a log it could not read; see the schema errors)"
		}
		t.Errorf("multitool control: broken.sarif drew%s\nwant %q%s", joinErrors(found[broken]), want, hint)
	}
	delete(found, broken)
	for file, fs := range found {
		t.Errorf("Sarif.Multitool validate: %s (line:col of the log):%s", filepath.Base(file), joinErrors(fs))
	}
}

// multitoolLine is one finding as `Sarif.Multitool validate` prints it:
// "FILE(LINE,COL): LEVEL RULE: JSONPATH: MESSAGE".
var multitoolLine = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): (error|warning|note) ([A-Z]+[0-9]+): (?:([^ :]+): )?(.*)$`)

type multitoolFinding struct {
	pos, level, rule, path, message string
}

func (f multitoolFinding) String() string {
	return fmt.Sprintf("%s: %s %s: %s: %s", f.pos, f.level, f.rule, f.path, f.message)
}

// runMultitool validates files and returns the errors and warnings it
// prints, by file.
func runMultitool(t *testing.T, tools sarifTools, dir string, files []string) map[string][]multitoolFinding {
	t.Helper()
	out := filepath.Join(dir, "validation.sarif") // the multitool's own log, unused: stdout is parsed
	// The files come first: list-valued options like --log would take them.
	args := append([]string{"validate"}, files...)
	args = append(args,
		"--config", tools.config,
		"--rule-kind", "Sarif;Gh;Ghas",
		"--level", "Error;Warning",
		"--output", out, "--log", "ForceOverwrite")
	cmd := exec.Command(tools.multitool, args...)
	cmd.Dir = dir
	// Invariant globalization: the .NET binary then needs no libicu.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	stdout, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s validate: %v\n%s", tools.multitool, err, stdout)
	}
	text := string(stdout)
	if !strings.Contains(text, "Analysis completed successfully.") ||
		!strings.Contains(text, fmt.Sprintf("Done. %d files scanned.", len(files))) {
		t.Fatalf("%s validate did not complete:\n%s", tools.multitool, text)
	}
	found := map[string][]multitoolFinding{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := multitoolLine.FindStringSubmatch(line); m != nil {
			found[m[1]] = append(found[m[1]], multitoolFinding{m[2] + ":" + m[3], m[4], m[5], m[6], m[7]})
			continue
		}
		// Tool notifications ("SARIF.MULTITOOL : error ERR…"); disabling
		// SARIF2006 is ours to do and is reported as WRN999.
		ours := strings.Contains(line, "WRN999.RuleExplicitlyDisabled") && strings.Contains(line, "'SARIF2006'")
		if strings.HasPrefix(line, "SARIF.MULTITOOL :") && !ours {
			t.Errorf("Sarif.Multitool: %s", line)
		}
	}
	return found
}
