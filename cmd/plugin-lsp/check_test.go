package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/report"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

const (
	exampleDir = "../../testdata/example/books"
	pluginsDir = "../../testdata/plugins"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dispatch(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckExampleIsClean(t *testing.T) {
	code, out, errs := run(t, "check", exampleDir)
	if code != 0 || out != "" || errs != "1 plugin checked: 0 errors, 0 warnings, 0 infos\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestCheckSummaryCounts(t *testing.T) {
	code, _, errs := run(t, "check", pluginsDir+"/page-hosts", exampleDir)
	if code != 1 || errs != "2 plugins checked: 15 errors, 0 warnings, 0 infos\n" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// The CLI prints exactly the .expect lines, prefixed with the directory as
// given: the harness in internal/checker/rules and the command agree.
func TestCheckTextMatchesExpectFiles(t *testing.T) {
	entries, err := os.ReadDir(pluginsDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !hasAnyPrefix(name, "good-", "manifest-", "names-", "creds-") {
			continue
		}
		n++
		dir := filepath.Join(pluginsDir, name)
		want, err := os.ReadFile(dir + ".expect")
		if err != nil {
			t.Fatal(err)
		}
		var prefixed strings.Builder
		hasError := false
		for _, l := range strings.SplitAfter(string(want), "\n") {
			if strings.HasPrefix(l, "  fix: ") {
				prefixed.WriteString(l)
			} else if l != "" {
				prefixed.WriteString(dir + "/" + l)
				hasError = hasError || strings.Contains(l, ": error: ")
			}
		}
		code, out, _ := run(t, "check", dir)
		if out != prefixed.String() {
			t.Errorf("%s: got\n%s\nwant\n%s", name, out, prefixed.String())
		}
		if wantCode := map[bool]int{true: 1, false: 0}[hasError]; code != wantCode {
			t.Errorf("%s: exit %d, want %d", name, code, wantCode)
		}
	}
	if n < 25 {
		t.Errorf("only %d plugins checked", n)
	}
}

func hasAnyPrefix(s string, ps ...string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func TestCheckExitCodesAndUsage(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"check"}, 2, "no plugin directory given"},
		{[]string{"check", "--format", "xml", exampleDir}, 2, `unknown format "xml"`},
		{[]string{"check", "--bogus", exampleDir}, 2, "unknown flag --bogus"},
		{[]string{"check", exampleDir, "--format"}, 2, "flag --format needs a value"},
		{[]string{"check", empty}, 2, "no plugin.json at or below"},
		{[]string{"check", filepath.Join(empty, "missing")}, 2, "no such file"},
		{[]string{"check", "--builtins", filepath.Join(empty, "nope.json"), exampleDir}, 2, "--builtins"},
		{[]string{"check", exampleDir, "--format=json"}, 0, ""},
		{[]string{"check", exampleDir + "/plugin.json"}, 0, ""},
		{[]string{"check", exampleDir + "/fixtures.json"}, 2, "no plugin.json at or below"},
		{[]string{"check", "-format", "sarif", exampleDir}, 0, ""},
		{[]string{"check", filepath.Join(pluginsDir, "creds-unscoped")}, 0, ""}, // warnings only
		{[]string{"check", filepath.Join(pluginsDir, "manifest-typos")}, 1, ""},
		{[]string{"check", exampleDir, filepath.Join(pluginsDir, "manifest-typos")}, 1, ""},
	}
	for _, tc := range tests {
		code, _, errs := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.stderr) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want it to contain %q)", tc.args, code, tc.code, errs, tc.stderr)
		}
	}
	if code, out, _ := run(t, "check", "--help"); code != 0 || !strings.Contains(out, "usage: plugin-lsp check") {
		t.Errorf("--help: %d %q", code, out)
	}
}

// A directory of plugins is checked plugin by plugin; results keep the
// order of the sorted directories.
func TestCheckDirectoryOfPlugins(t *testing.T) {
	code, out, errs := run(t, "check", pluginsDir, exampleDir)
	if code != 1 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	for _, want := range []string{
		pluginsDir + "/manifest-typos/plugin.json:4:3: error: unknown key \"tool\" (did you mean \"tools\"?) [manifest-schema]\n",
		pluginsDir + "/creds-unscoped/plugin.json:12:17: warning: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Index(out, "/creds-bad-format/") > strings.Index(out, "/manifest-typos/") {
		t.Error("results are not in directory order")
	}
	// A plugin named twice (directly and through its parent) is checked once.
	_, out, _ = run(t, "check", filepath.Join(pluginsDir, "manifest-typos"), pluginsDir)
	if n := strings.Count(out, `unknown key "tool" (did you mean "tools"?)`); n != 1 {
		t.Errorf("manifest-typos reported %d times", n)
	}
}

func TestCheckJSON(t *testing.T) {
	dirA := filepath.Join(pluginsDir, "manifest-unicode")
	dirB := filepath.Join(pluginsDir, "creds-unscoped")
	code, out, _ := run(t, "check", dirA, dirB, "--format", "json")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"code":"manifest-schema","file":"plugin.json","message":"\"name\" must be lower-case letters, digits and '-', starting with a letter or digit, like \"books\"","plugin":"../../testdata/plugins/manifest-unicode","range":{"end":{"character":20,"line":1},"start":{"character":10,"line":1}},"severity":1}`,
		`{"code":"manifest-schema","file":"plugin.json","message":"\"sdk\" must be the number 1 (the only SDK version)","plugin":"../../testdata/plugins/manifest-unicode","range":{"end":{"character":69,"line":2},"start":{"character":63,"line":2}},"severity":1}`,
		`{"code":"credential-unscoped","file":"plugin.json","message":"credential \"openlibrary_key\" has no \"domains\", so it is sent to all 2 fetch domains (api.openlibrary.org, covers.example-cdn.net); scope it to the ones it is for","plugin":"../../testdata/plugins/creds-unscoped","range":{"end":{"character":33,"line":11},"start":{"character":16,"line":11}},"severity":2}`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics:\n%s", len(got), out)
	}
	for i, g := range got {
		b, _ := json.Marshal(g)
		if string(b) != want[i] {
			t.Errorf("diagnostic %d:\n got %s\nwant %s", i, b, want[i])
		}
	}
	// A clean run is an empty array, not null.
	if _, out, _ := run(t, "check", "--format", "json", exampleDir); strings.TrimSpace(out) != "[]" {
		t.Errorf("clean json = %q", out)
	}
}

// SARIF 2.1.0 as GitHub code scanning reads it: version, tool.driver with
// rules (helpUri into docs/rules.md), results with ruleId/ruleIndex,
// level, message.text and a physical location relative to the checkout.
func TestCheckSARIF(t *testing.T) {
	dir := filepath.Join(pluginsDir, "manifest-fetch-limits")
	code, out, _ := run(t, "check", "--format", "sarif", dir)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			ColumnKind         string
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Tool               struct {
				Driver struct {
					Name, InformationURI string
					Rules                []struct {
						ID, Name, HelpURI    string
						ShortDescription     struct{ Text string }
						FullDescription      struct{ Text string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("header: %+v", log)
	}
	r := log.Runs[0]
	if r.Tool.Driver.Name != "plugin-lsp" || r.ColumnKind != "utf16CodeUnits" || !strings.HasPrefix(r.OriginalURIBaseIDs["%SRCROOT%"].URI, "file:///") {
		t.Errorf("run: %+v", r)
	}
	ids := map[string]int{}
	for i, rule := range r.Tool.Driver.Rules {
		ids[rule.ID] = i
		if rule.HelpURI != report.RulesDocURL+"#"+rule.ID || rule.ShortDescription.Text == "" || rule.FullDescription.Text == "" || rule.Name == "" {
			t.Errorf("rule %+v", rule)
		}
	}
	for _, rule := range rules.All() {
		if _, ok := ids[rule.Code]; !ok && rule.Reports() {
			t.Errorf("driver lacks rule %s", rule.Code)
		}
	}
	// 6 limits and types, and the page's fetch of the domain whose entry
	// is malformed (it grants nothing) at the call and at the tool.
	if len(r.Results) != 8 {
		t.Fatalf("want 8 results, got %d", len(r.Results))
	}
	first := r.Results[0]
	for _, res := range r.Results {
		if res.RuleID == "fetch-limit-range" {
			first = res
			break
		}
	}
	loc := first.Locations[0].PhysicalLocation
	if first.RuleID != "fetch-limit-range" || r.Tool.Driver.Rules[first.RuleIndex].ID != first.RuleID || first.Level != "error" ||
		loc.ArtifactLocation.URI != "../../testdata/plugins/manifest-fetch-limits/plugin.json" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
		loc.Region.StartLine != 10 || loc.Region.StartColumn != 58 || loc.Region.EndLine != 10 || loc.Region.EndColumn != 67 {
		t.Errorf("first result: %+v", first)
	}
	for _, res := range r.Results {
		reg := res.Locations[0].PhysicalLocation.Region
		if res.Message.Text == "" || reg.StartLine < 1 || reg.StartColumn < 1 || reg.EndLine < reg.StartLine ||
			reg.EndLine == reg.StartLine && reg.EndColumn <= reg.StartColumn {
			t.Errorf("result %+v", res)
		}
	}
}

func TestCheckBuiltinsFlag(t *testing.T) {
	f := filepath.Join(t.TempDir(), "builtins.json")
	os.WriteFile(f, []byte(`["feed.snapshot", "fn.topicHelp"]`), 0o644)
	code, out, _ := run(t, "check", filepath.Join(pluginsDir, "good-native-tools"), filepath.Join(pluginsDir, "good-native-default"), "--builtins", f)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	want := pluginsDir + "/good-native-tools/plugin.json:6:62: error: native tool \"feed.snapshot\" has the name of a built-in tool: built-ins win, so it can never be called [name-shadows-builtin]\n" +
		"  fix: Rename to \"market-feed.snapshot\" in plugin.json and native/zmq.js\n" +
		pluginsDir + "/good-native-default/plugin.json:6:15: error: function tool \"topicHelp\" registers as \"fn.topicHelp\", which is a built-in tool: built-ins win, so this tool can never be called [name-shadows-builtin]\n" +
		"  fix: Rename to \"topicHelp2\"\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	os.WriteFile(f, []byte(`{"not": "an array"}`), 0o644)
	if code, _, errs := run(t, "check", exampleDir, "--builtins", f); code != 2 || !strings.Contains(errs, "JSON array") {
		t.Errorf("bad builtins: %d %s", code, errs)
	}
}

// The real binary: exit codes reach the shell.
func TestCheckBinaryExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "plugin-lsp")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"check", exampleDir}, 0},
		{[]string{"check", filepath.Join(pluginsDir, "manifest-truncated")}, 1},
		{[]string{"check", "--format", "nope", exampleDir}, 2},
		{[]string{"review", exampleDir}, 0},
		{[]string{"review"}, 2},
	} {
		err := exec.Command(bin, tc.args...).Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
}

// SARIF URIs are relative to the working directory and percent-encoded.
func TestCheckSARIFURIs(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "my plugin ü")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"x","version":"1"}`), 0o644)
	t.Chdir(root)
	_, out, _ := run(t, "check", "--format", "sarif", ".")
	for _, want := range []string{`"uri": "my%20plugin%20%C3%BC/plugin.json"`, `"uriBaseId": "%SRCROOT%"`} {
		if !strings.Contains(out, want) {
			t.Errorf("sarif lacks %s:\n%s", want, out)
		}
	}
}
