package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
)

var (
	cmdRunnerOnce sync.Once
	cmdRunner     *runner.Runner
	cmdRunnerErr  error
)

// sharedRunFactory gives every test the same runner (one QuickJS engine
// per process) and never closes it.
func sharedRunFactory() (runner.ToolRunner, func(), error) {
	cmdRunnerOnce.Do(func() {
		cmdRunner, cmdRunnerErr = runner.New(runner.Config{CacheDir: "-", Env: func(string) string { return "" }})
	})
	return cmdRunner, func() {}, cmdRunnerErr
}

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := runCommand(args, &out, &errb, sharedRunFactory)
	return code, out.String(), errb.String()
}

var books = filepath.Join("..", "..", "testdata", "example", "books")

func TestRunCommand(t *testing.T) {
	code, out, stderr := runCLI("--input", `{"isbn":"9780261103344"}`, books, "lookupBook")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	var rec struct {
		Claim   string          `json:"claim"`
		OK      bool            `json:"ok"`
		Result  json.RawMessage `json:"result"`
		Error   any             `json:"error"`
		Logs    []any           `json:"logs"`
		Fetches []struct {
			URL         string   `json:"url"`
			Source      string   `json:"source"`
			Credentials []string `json:"credentials"`
		} `json:"fetches"`
		DurationMs *float64 `json:"durationMs"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var compact bytes.Buffer
	json.Compact(&compact, rec.Result)
	if !rec.OK || compact.String() != `{"type":"stat","value":"The Hobbit","label":"Title"}` || rec.Error != nil ||
		!strings.HasPrefix(rec.Claim, "fn.lookupBook:") || len(rec.Logs) != 1 || rec.DurationMs == nil ||
		len(rec.Fetches) != 1 || rec.Fetches[0].Source != "fixture" || rec.Fetches[0].Credentials[0] != "openlibrary_key" {
		t.Fatalf("record: %s", out)
	}
	if strings.Contains(out, "dev-ol-4f9c2e7a1b") {
		t.Fatal("secret in output")
	}
}

func TestRunCommandFailures(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string // in stdout for 1, stderr for 2
	}{
		{[]string{books, "lookupBook", "--input", `{"isbn":"1"}`}, 1, `"refused": "no-fixture"`},
		{[]string{"--timeout=5s", books, "lookupBook", "--input", `{"isbn":"2"}`}, 1, `"file": "code/lookup-book.ts"`},
		{[]string{books, "lookupBook", "--input", `{}`}, 1, `"name": "InputError"`},
		{[]string{books, "lookupBook", "--input", `{"isbn":7}`}, 1, `"pointer": "/isbn"`},
		{[]string{books, "lookupBook", "--input", "@/nonexistent/input.json"}, 2, "--input:"},
		{[]string{books, "nope"}, 2, `no function tool "nope"`},
		{[]string{books}, 2, "want exactly DIR and TOOL"},
		{[]string{"--input", "{", books, "lookupBook"}, 2, "not JSON"},
		{[]string{"--timeout", "soon", books, "lookupBook"}, 2, "not a positive duration"},
		{[]string{"--providers", "mock", books, "lookupBook"}, 2, "fake or real"},
		{[]string{"--frobnicate", books, "lookupBook"}, 2, "unknown flag"},
		{[]string{"/nonexistent/dir", "lookupBook"}, 2, "plugin-lsp run:"},
		{[]string{"--fixtures", "/nonexistent/fixtures.json", books, "lookupBook", "--input", `{"isbn":"9780261103344"}`}, 1, `has no dev secret`},
	}
	for _, tc := range cases {
		code, out, stderr := runCLI(tc.args...)
		got := out
		if tc.code == 2 {
			got = stderr
		}
		if code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("%v: exit %d (want %d), want %q in\nstdout %s\nstderr %s", tc.args, code, tc.code, tc.want, out, stderr)
		}
	}
}

// Without --input the tool gets inputJsonSchema.examples[0]; --input -
// reads stdin, and what it reads is validated like any input.
func TestRunCommandInputSources(t *testing.T) {
	code, out, stderr := runCLI(books, "lookupBook")
	if code != 0 || !strings.Contains(out, `"value": "The Hobbit"`) {
		t.Fatalf("default input: exit %d\n%s\n%s", code, out, stderr)
	}
	var o, e bytes.Buffer
	code = runCommandIO([]string{"--input", "-", books, "lookupBook"}, strings.NewReader(`{"isbn":"9780261103344"}`), &o, &e, sharedRunFactory)
	if code != 0 || !strings.Contains(o.String(), `"value": "The Hobbit"`) {
		t.Fatalf("stdin: exit %d\n%s\n%s", code, o.String(), e.String())
	}
	o.Reset()
	e.Reset()
	code = runCommandIO([]string{"--input=-", books, "lookupBook"}, strings.NewReader(`{"isbn": null, "extra": 1}`), &o, &e, sharedRunFactory)
	var rec struct {
		OK    bool
		Error struct {
			Name       string
			File       string
			Line       int
			Violations []struct{ Pointer, Message string }
		}
		Fetches []any
	}
	if err := json.Unmarshal(o.Bytes(), &rec); err != nil {
		t.Fatalf("%v: %s %s", err, o.String(), e.String())
	}
	if code != 1 || rec.OK || rec.Error.Name != "InputError" || rec.Error.File != "plugin.json" || rec.Error.Line != 10 ||
		len(rec.Error.Violations) != 1 || rec.Error.Violations[0].Pointer != "/isbn" || len(rec.Fetches) != 0 {
		t.Fatalf("exit %d: %s", code, o.String())
	}
	code = runCommandIO([]string{"--input", "-", books, "lookupBook"}, strings.NewReader(`{"isbn"`), &o, &e, sharedRunFactory)
	if code != 2 || !strings.Contains(e.String(), "not JSON") {
		t.Fatalf("exit %d: %s", code, e.String())
	}
}
