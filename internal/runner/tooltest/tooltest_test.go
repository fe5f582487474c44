package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

var shared *runner.Runner

func TestMain(m *testing.M) {
	r, err := runner.New(runner.Config{Spare: -1, MaxConcurrent: 4, Env: func(string) string { return "" }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	shared = r
	code := m.Run()
	r.Close()
	os.Exit(code)
}

// writePlugin writes files (slash paths) under a new directory.
func writePlugin(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runDir(t testing.TB, dir string, opt Options) []testcase.Result {
	t.Helper()
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadSuite(p)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Runner == nil {
		opt.Runner = shared
	}
	rs, err := Run(context.Background(), []*Suite{s}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func byName(rs []testcase.Result) map[string]*testcase.Result {
	m := map[string]*testcase.Result{}
	for i := range rs {
		m[rs[i].Name] = &rs[i]
	}
	return m
}

func failureLines(r *testcase.Result) []string {
	var out []string
	for _, f := range r.Failures {
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s: %s %s %s", f.Path, f.Message, f.Expected, f.Actual)))
	}
	return out
}

func TestExampleSuitePasses(t *testing.T) {
	rs := runDir(t, "../../../testdata/example/books", Options{})
	sum := Summarize(rs)
	if !sum.OK() || sum.Passed < 12 {
		var b bytes.Buffer
		Write(&b, "text", rs, sum, "")
		t.Fatalf("the example's tests do not pass:\n%s", b.String())
	}
	tools := map[string]int{}
	errorCases := map[string]int{}
	for _, r := range rs {
		tools[r.Tool]++
		if r.Case.Error != nil {
			errorCases[r.Tool]++
		}
	}
	for _, tool := range []string{"lookupBook", "searchBooks", "saveFavourite"} {
		if tools[tool] == 0 || errorCases[tool] == 0 {
			t.Errorf("%s: %d cases, %d error cases; want at least one of each", tool, tools[tool], errorCases[tool])
		}
	}
}

const echoPlugin = `{
  "name": "echo", "version": "1.0.0",
  "tools": [
    { "name": "echo", "page": "code/echo" },
    { "name": "spin", "page": "code/spin" }
  ],
  "capabilities": { "host": ["http.fetch"], "fetch": ["api.x.org"] }
}`

const echoPage = `export default async function echo(input: { fail?: string; fetch?: boolean; log?: string }) {
  if (input.fetch) {
    const r = await http.fetch("https://api.x.org/v1/items?b=2&a=1");
    console.log("status", r.status);
  }
  if (input.log) console.warn(input.log);
  if (input.fail) throw new TypeError(input.fail);
  return { a: 1, b: [1, 2], c: "x", n: 2.50 };
}
`

const spinPage = `export default async function spin() {
  for (;;) {}
}
`

func TestFailuresAreDiffsPerPath(t *testing.T) {
	dir := writePlugin(t, map[string]string{
		"plugin.json":   echoPlugin,
		"code/echo.ts":  echoPage,
		"code/spin.ts":  spinPage,
		"fixtures.json": `{"fnFetch": [{"url": "https://api.x.org/v1/items?a=1&b=2", "status": 201, "body": {}}]}`,
		"tests/echo.json": `{"tool": "echo", "cases": [
  {"name": "exact passes", "input": {}, "result": {"n": 2.5, "c": "x", "b": [1, 2], "a": 1}},
  {"name": "exact differs", "input": {}, "result": {"a": 2, "b": [1], "c": "x", "n": 2.5, "d": null}},
  {"name": "subset passes", "input": {}, "resultContains": {"b": [1, 2]}},
  {"name": "subset differs", "input": {}, "resultContains": {"c": "y", "b": [1, 3]}},
  {"name": "expected error, returned", "input": {}, "error": {"name": "TypeError"}},
  {"name": "expected error passes", "input": {"fail": "bad input"}, "error": {"name": "TypeError", "message": "bad"}},
  {"name": "error differs", "input": {"fail": "bad input"}, "error": {"name": "RangeError", "message": "worse"}},
  {"name": "threw unexpectedly", "input": {"fail": "oops"}, "result": {}},
  {"name": "fetches pass", "input": {"fetch": true}, "fetches": [{"method": "GET", "url": "https://api.x.org/v1/items?a=1&b=2", "status": 201, "credentials": []}], "logs": [{"level": "log", "message": "status 201"}]},
  {"name": "fetches differ", "input": {"fetch": true}, "fetches": [{"method": "POST", "status": 200}, {"url": "https://api.x.org/other"}]},
  {"name": "no fetch expected", "input": {"fetch": true, "log": "careful"}, "fetches": [], "logs": [{"level": "log"}]},
  {"name": "case fixtures win", "input": {"fetch": true}, "fixtures": {"fnFetch": [{"url": "https://api.x.org/v1/items?a=1&b=2", "status": 503}]}, "logs": [{"message": "status 503"}]}
]}`,
	})
	got := byName(runDir(t, dir, Options{}))
	want := map[string][]string{
		"exact passes": nil,
		"exact differs": {
			`result.a: differs 2 1`,
			`result.b[1]: unexpected  2`,
			`result.d: missing null`,
		},
		"subset passes": nil,
		"subset differs": {
			`result.b[1]: differs 3 2`,
			`result.c: differs "y" "x"`,
		},
		"expected error, returned": {`error: the tool returned instead of throwing {"name":"TypeError"} {"a":1,"b":[1,2],"c":"x","n":2.5}`},
		"expected error passes":    nil,
		"error differs": {
			`error.name: differs "RangeError" "TypeError"`,
			`error.message: does not contain the expected text "worse" "bad input"`,
		},
		"threw unexpectedly": {`error: the tool threw TypeError: oops (code/echo.ts:7:25)`},
		"fetches pass":       nil,
		"fetches differ": {
			`fetches[0].method: differs "POST" "GET"`,
			`fetches[0].status: differs 200 201`,
			`fetches[1]: missing: the run made only 1 fetch {"url":"https://api.x.org/other"}`,
		},
		"no fetch expected": {
			`fetches[0]: unexpected  "GET https://api.x.org/v1/items?b=2&a=1"`,
			`logs[1]: unexpected  "warn: careful"`,
		},
		"case fixtures win": nil,
	}
	for name, w := range want {
		r := got[name]
		if r == nil {
			t.Errorf("%s: no result", name)
			continue
		}
		lines := failureLines(r)
		if strings.Join(lines, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s (%s):\n got  %q\n want %q", name, r.Status, lines, w)
		}
		wantStatus := testcase.Pass
		if len(w) > 0 {
			wantStatus = testcase.Fail
		}
		if r.Status != wantStatus {
			t.Errorf("%s: status %s, want %s", name, r.Status, wantStatus)
		}
	}
}

func TestSnapshotLifecycle(t *testing.T) {
	dir := writePlugin(t, map[string]string{
		"plugin.json":  echoPlugin,
		"code/echo.ts": echoPage,
		"code/spin.ts": spinPage,
		"tests/snap.json": `{"tool": "echo", "cases": [
  {"name": "shape", "input": {}, "snapshot": true},
  {"name": "plain", "input": {}}
]}`,
	})
	snapFile := filepath.Join(dir, "tests", "__snapshots__", "snap.snap.json")
	rs := byName(runDir(t, dir, Options{}))
	if r := rs["shape"]; r.Status != testcase.Fail || !strings.Contains(r.Failures[0].Message, "no stored snapshot") {
		t.Fatalf("missing snapshot: %+v", r)
	}
	if _, err := os.Stat(snapFile); err == nil {
		t.Fatal("a run without --update wrote a snapshot")
	}
	rs = byName(runDir(t, dir, Options{Update: true}))
	if r := rs["shape"]; r.Status != testcase.Pass || r.Snapshot != "written" {
		t.Fatalf("update: %+v", r)
	}
	data, err := os.ReadFile(snapFile)
	if err != nil {
		t.Fatal(err)
	}
	wantFile := "{\n  \"shape\": {\n    \"a\": 1,\n    \"b\": [\n      1,\n      2\n    ],\n    \"c\": \"x\",\n    \"n\": 2.5\n  }\n}\n"
	if string(data) != wantFile {
		t.Fatalf("snapshot file:\n%s\nwant\n%s", data, wantFile)
	}
	if r := byName(runDir(t, dir, Options{}))["shape"]; r.Status != testcase.Pass {
		t.Fatalf("after update: %v", failureLines(r))
	}
	// The page changes: the snapshot catches it, with a diff.
	os.WriteFile(filepath.Join(dir, "code", "echo.ts"), []byte(strings.Replace(echoPage, `c: "x"`, `c: "y", d: true`, 1)), 0o644)
	r := byName(runDir(t, dir, Options{}))["shape"]
	if strings.Join(failureLines(r), "\n") != "result.c: differs \"x\" \"y\"\nresult.d: unexpected  true" {
		t.Fatalf("changed result: %q", failureLines(r))
	}
	// A second update rewrites it; a snapshot no case uses is dropped.
	data, _ = os.ReadFile(snapFile)
	os.WriteFile(snapFile, bytes.Replace(data, []byte("{\n  \"shape\""), []byte("{\n  \"gone\": 1,\n  \"shape\""), 1), 0o644)
	runDir(t, dir, Options{Update: true})
	data, _ = os.ReadFile(snapFile)
	if bytes.Contains(data, []byte("gone")) || !bytes.Contains(data, []byte(`"c": "y"`)) {
		t.Fatalf("second update:\n%s", data)
	}
	// Accept (the editor's quick fix) stores a given result.
	p, _ := checker.Load(checker.OSFS{}, dir)
	files, _ := Load(p)
	if err := Accept(p, files[0].Cases[0], json.RawMessage(`{"accepted": true}`)); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(snapFile)
	if !bytes.Contains(data, []byte(`"accepted": true`)) {
		t.Fatalf("accept:\n%s", data)
	}
	// A snapshot file with a case written twice is refused, both positions named.
	os.WriteFile(snapFile, []byte("{\n  \"shape\": {\"a\": 1},\n  \"shape\": {\"a\": 1, \"b\": [1, 2], \"c\": \"y\", \"d\": true, \"n\": 2.5}\n}\n"), 0o644)
	if r := byName(runDir(t, dir, Options{}))["shape"]; r.Status != testcase.Fail || !strings.Contains(r.Failures[0].Message, `tests/__snapshots__/snap.snap.json:3:3: duplicate key "shape": first written at 2:3, again at 3:3`) {
		t.Fatalf("duplicate in the snapshot: %+v", r.Failures)
	}
	// A broken snapshot file is a failure that says how to repair it.
	os.WriteFile(snapFile, []byte(`{"shape": `), 0o644)
	if r := byName(runDir(t, dir, Options{}))["shape"]; r.Status != testcase.Fail || !strings.Contains(r.Failures[0].Message, "--update") {
		t.Fatalf("broken snapshot: %+v", r.Failures)
	}
}

func TestTimeouts(t *testing.T) {
	dir := writePlugin(t, map[string]string{
		"plugin.json":  echoPlugin,
		"code/echo.ts": echoPage,
		"code/spin.ts": spinPage,
		"tests/spin.json": `{"tool": "spin", "cases": [
  {"name": "spins past its deadline", "timeoutMs": 300, "result": null},
  {"name": "expects the timeout", "timeoutMs": 300, "error": {"name": "TimeoutError"}}
]}`,
	})
	rs := byName(runDir(t, dir, Options{Timeout: time.Minute}))
	if r := rs["spins past its deadline"]; r.Status != testcase.Fail || !strings.HasPrefix(r.Failures[0].Message, "the tool threw TimeoutError") {
		t.Errorf("%+v", failureLines(r))
	}
	if r := rs["expects the timeout"]; r.Status != testcase.Pass {
		t.Errorf("%+v", failureLines(r))
	}
	// The caller's default applies to cases without timeoutMs.
	dir2 := writePlugin(t, map[string]string{
		"plugin.json": echoPlugin, "code/echo.ts": echoPage, "code/spin.ts": spinPage,
		"tests/spin.json": `{"tool": "spin", "cases": [{"name": "default deadline", "error": {"name": "TimeoutError"}}]}`,
	})
	if r := runDir(t, dir2, Options{Timeout: 200 * time.Millisecond})[0]; r.Status != testcase.Pass {
		t.Errorf("%+v", failureLines(&r))
	}
}

// concurrencyRunner records how many runs are in flight at once.
type concurrencyRunner struct {
	inFlight, peak atomic.Int32
	calls          atomic.Int32
	mu             sync.Mutex
	seen           []string
}

func (c *concurrencyRunner) Run(ctx context.Context, req runner.Request) (*record.Record, error) {
	n := c.inFlight.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	time.Sleep(20 * time.Millisecond)
	c.inFlight.Add(-1)
	c.calls.Add(1)
	c.mu.Lock()
	c.seen = append(c.seen, string(req.Input))
	c.mu.Unlock()
	return &record.Record{OK: true, Result: req.Input}, nil
}

func TestParallelAndFilter(t *testing.T) {
	var cases []string
	for i := range 24 {
		cases = append(cases, fmt.Sprintf(`{"name": "case %d", "input": %d, "result": %d}`, i, i, i))
	}
	dir := writePlugin(t, map[string]string{
		"plugin.json": echoPlugin, "code/echo.ts": echoPage, "code/spin.ts": spinPage,
		"tests/many.json": `{"tool": "echo", "cases": [` + strings.Join(cases, ",") + `]}`,
	})
	for _, par := range []int{1, 4} {
		cr := &concurrencyRunner{}
		rs := runDir(t, dir, Options{Runner: cr, Parallel: par})
		if cr.calls.Load() != 24 || int(cr.peak.Load()) != par || !Summarize(rs).OK() {
			t.Errorf("parallel %d: %d calls, peak %d in flight, %+v", par, cr.calls.Load(), cr.peak.Load(), Summarize(rs))
		}
		for i, r := range rs { // results keep file order whatever the finishing order
			if r.Name != fmt.Sprintf("case %d", i) {
				t.Fatalf("result %d is %q", i, r.Name)
			}
		}
	}
	cr := &concurrencyRunner{}
	rs := runDir(t, dir, Options{Runner: cr, Filter: regexp.MustCompile(`^echo/case 1\d$`)})
	if len(rs) != 10 || cr.calls.Load() != 10 {
		t.Errorf("filter: %d results, %d runs", len(rs), cr.calls.Load())
	}
}

func TestBrokenTestFiles(t *testing.T) {
	dir := writePlugin(t, map[string]string{
		"plugin.json": echoPlugin, "code/echo.ts": echoPage, "code/spin.ts": spinPage,
		"tests/a-syntax.json": "{\"tool\": \"echo\", \"cases\": [\n  {\"name\": \"x\",}\n]}",
		"tests/b-schema.json": "{\"tool\": \"echo\", \"cases\": [\n  {\"name\": \"x\", \"reslt\": 1, \"timeoutMs\": \"5s\"}\n]}",
		"tests/c-tool.json":   "{\"tool\": \"ehco\", \"cases\": [\n  {\"name\": \"x\"},\n  {\"name\": \"x\", \"tool\": \"nope\"}\n]}",
		"tests/d-both.json":   "{\"tool\": \"echo\", \"cases\": [\n  {\"name\": \"x\", \"result\": 1, \"error\": {}},\n  {\"name\": \"y\", \"fixtures\": {\"fnFetch\": [\n  {\"url\": \"https://api.x.org\", \"status\": \"500\"}]}}\n]}",
		"tests/e-dup.json":    "{\"tool\": \"echo\", \"cases\": [\n  {\"name\": \"x\", \"input\": {\"a\": 1, \"a\": 2}, \"fixtures\": {\"secrets\": {\"k\": \"1\", \"k\": \"2\"}}}\n], \"tool\": \"spin\"}",
		"tests/notes.txt":     "not a test file",
	})
	rs := runDir(t, dir, Options{})
	var got []string
	for _, r := range rs {
		if r.Status != testcase.Broken {
			t.Errorf("%s/%s: %s", r.File, r.Name, r.Status)
		}
		got = append(got, r.Failures[0].Path+": "+r.Failures[0].Message)
	}
	want := []string{
		`tests/a-syntax.json:2:15: invalid character ',' at start of value (at ",")`,
		`tests/b-schema.json:2:17: unknown key "reslt" (did you mean "result"?)`,
		`tests/b-schema.json:2:42: "cases[0].timeoutMs" must be a number of milliseconds from 1 to 600000, not a string`,
		`tests/c-tool.json:1:10: plugin.json has no function tool "ehco" (did you mean "echo"?)`,
		`tests/c-tool.json:3:25: plugin.json has no function tool "nope"; it declares echo, spin`,
		`tests/c-tool.json:3:12: a case named "x" comes earlier in this file: names must be unique (snapshots are stored by name)`,
		`tests/d-both.json:2:39: a case expects either an error or a result, not both`,
		`tests/d-both.json:3:29: fixtures of the case: 4:42: "fnFetch[0].status" must be an HTTP status number from 100 to 599, like 200, not a string`,
		`tests/e-dup.json:2:35: duplicate key "a" (/cases/0/input/a): first written at 2:27, again at 2:35; a key must appear once (readers disagree on which one counts), so the file is refused: keep one`,
		`tests/e-dup.json:2:79: duplicate key "k" (/cases/0/fixtures/secrets/k): first written at 2:69, again at 2:79; a key must appear once (readers disagree on which one counts), so the file is refused: keep one`,
		`tests/e-dup.json:3:4: duplicate key "tool": first written at 1:2, again at 3:4; a key must appear once (readers disagree on which one counts), so the file is refused: keep one`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFormats(t *testing.T) {
	dir := writePlugin(t, map[string]string{
		"plugin.json": echoPlugin, "code/echo.ts": echoPage, "code/spin.ts": spinPage,
		"tests/f.json": `{"tool": "echo", "cases": [
  {"name": "passes", "input": {}, "resultContains": {"a": 1}},
  {"name": "fails # with <xml> & \"quotes\"", "input": {}, "resultContains": {"a": 9}}
]}`,
		"tests/g.json": `{"tool": "echo", "cases": [{"name": "x", "resut": 1}]}`,
	})
	rs := runDir(t, dir, Options{})
	sum := Summarize(rs)
	if sum.Passed != 1 || sum.Failed != 1 || sum.Broken != 1 || sum.OK() {
		t.Fatalf("%+v", sum)
	}
	var tap bytes.Buffer
	Write(&tap, "tap", rs, sum, dir)
	for _, want := range []string{"TAP version 14\n1..3\n", "ok 1 - echo/passes\n", "not ok 2 - echo/fails \\# with <xml> & \"quotes\"\n  ---\n", `      expected: "9"`, "not ok 3 - tests/g.json\n"} {
		if !strings.Contains(tap.String(), want) {
			t.Errorf("tap lacks %q:\n%s", want, tap.String())
		}
	}
	var junit bytes.Buffer
	Write(&junit, "junit", rs, sum, dir)
	var parsed junitSuites
	if err := xml.Unmarshal(junit.Bytes(), &parsed); err != nil {
		t.Fatalf("junit does not parse: %v\n%s", err, junit.String())
	}
	if parsed.Tests != 3 || parsed.Failures != 1 || parsed.Errors != 1 || len(parsed.Suites) != 2 || parsed.Suites[0].Cases[1].Failure == nil ||
		parsed.Suites[0].Cases[1].Name != `fails # with <xml> & "quotes"` || !strings.Contains(parsed.Suites[0].Cases[1].Failure.Text, "expected: 9") {
		t.Errorf("junit: %+v", parsed)
	}
	var js bytes.Buffer
	Write(&js, "json", rs, sum, dir)
	var doc struct {
		Passed, Failed, Errors int
		Results                []struct {
			File, Name, Status string
			Line               int
			Failures           []testcase.Failure
		}
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc.Passed != 1 || doc.Failed != 1 || doc.Errors != 1 || doc.Results[1].Line != 3 ||
		doc.Results[1].Failures[0].Path != "result.a" || doc.Results[1].Failures[0].Actual != "1" {
		t.Errorf("json: %v %+v", err, doc)
	}
	var txt bytes.Buffer
	Write(&txt, "text", rs, sum, dir)
	if !strings.Contains(txt.String(), "FAIL  echo/fails # with <xml> & \"quotes\"") || !strings.HasSuffix(txt.String(), "FAIL: 1 passed, 1 failed, 1 errors in 0.00 s\n") {
		t.Errorf("text:\n%s", txt.String())
	}
}

// Hostile test files give problems with positions, never a crash or a
// hang: deep nesting, a truncated file, bytes that are not UTF-8, a case
// whose input nests as deep as the JSON decoder allows.
func TestHostileTestFiles(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	deepInput := `{"tool": "echo", "cases": [{"name": "deep", "input": ` + strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000) + `, "resultContains": ` + strings.Repeat("[", 3000) + strings.Repeat("]", 3000) + `}]}`
	for name, text := range map[string]string{
		"deep":      deep,
		"truncated": `{"tool": "echo", "cases": [{"name": "x", "input": {"a": [1, 2`,
		"binary":    "{\"tool\": \"echo\", \"cases\": [{\"name\": \"\xff\xfe\x00\"}]}",
		"empty":     "",
		"null":      "null",
		"deepInput": deepInput,
	} {
		f := Parse(nil, "tests/"+name+".json", []byte(text))
		if name == "deepInput" {
			if len(f.Problems) != 0 || len(f.Cases) != 1 {
				t.Errorf("%s: %+v", name, f.Problems)
			}
			continue
		}
		if len(f.Problems) == 0 {
			t.Errorf("%s: no problem reported", name)
		}
		for _, p := range f.Problems {
			if p.Span.Start < 0 || p.Span.End > len(text) || p.Message == "" {
				t.Errorf("%s: bad problem %+v", name, p)
			}
		}
	}
	// Comparing values as deep as the decoder allows does not crash.
	var w, g strings.Builder
	for range 9000 {
		w.WriteString("[")
		g.WriteString("[")
	}
	w.WriteString("1")
	g.WriteString("2")
	for range 9000 {
		w.WriteString("]")
		g.WriteString("]")
	}
	if fs := diffJSON("result", json.RawMessage(w.String()), json.RawMessage(g.String()), true); len(fs) != 1 {
		t.Errorf("deep diff: %d failures", len(fs))
	}
}

// A manifest that does not parse says nothing about which tools exist:
// its syntax error is the cause, and the test cases do not each repeat
// it as "plugin.json has no function tool" (in an editor, every case of
// every test file lit up while a key was being typed).
func TestBrokenManifestIsNotRepeatedByTestFiles(t *testing.T) {
	for name, manifest := range map[string]string{
		"syntax":         `{"name": "p", "version": "1.0.0", "tools": [{"name": "echo", "page": "code/echo"}], "`,
		"tools-not-list": `{"name": "p", "version": "1.0.0", "tools": {"name": "echo"}}`,
	} {
		dir := writePlugin(t, map[string]string{"plugin.json": manifest, "code/echo.ts": echoPage})
		p, err := checker.Load(nil, dir)
		if err != nil {
			t.Fatal(err)
		}
		f := Parse(p, "tests/echo.json", []byte(`{"tool": "echo", "cases": [{"name": "x", "input": {}}]}`))
		for _, pr := range f.Problems {
			t.Errorf("%s: %s", name, pr.Message)
		}
	}
	// The check still works when the manifest is readable.
	dir := writePlugin(t, map[string]string{"plugin.json": echoPlugin, "code/echo.ts": echoPage})
	p, _ := checker.Load(nil, dir)
	if f := Parse(p, "tests/x.json", []byte(`{"tool": "ehco", "cases": [{"name": "x"}]}`)); len(f.Problems) != 1 {
		t.Errorf("a misspelt tool with a readable manifest: %+v", f.Problems)
	}
}
