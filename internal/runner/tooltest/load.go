// Package tooltest runs a plugin's tool tests: the JSON files under
// tests/ (format: tests.schema.json, documented in docs/testing.md), each
// case in a fresh sandbox with fake providers, in parallel. It compares
// the run record with what the case expects (result exactly, as a subset
// or against a stored snapshot; the error; the fetches; the logs) and
// reports per-path differences. `plugin-lsp test`, the language server's
// test lenses and the VS Code Testing view all use it.
package tooltest

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// SchemaJSON is the text of the test files' schema (internal/checker/schema/tests.schema.json).
var SchemaJSON = schema.TestsJSON

// SchemaID is the schema's $id.
const SchemaID = schema.TestsID

// MaxFileBytes bounds a test file (and a snapshot file).
const MaxFileBytes = 16 << 20

var (
	validatorOnce sync.Once
	validator     *schema.Validator
	validatorErr  error
)

func testsValidator() (*schema.Validator, error) {
	validatorOnce.Do(func() {
		validator, validatorErr = schema.Compile(SchemaID, SchemaJSON, "the test file")
	})
	return validator, validatorErr
}

type caseJSON struct {
	Name           string                      `json:"name"`
	Tool           string                      `json:"tool"`
	Input          json.RawMessage             `json:"input"`
	Result         json.RawMessage             `json:"result"`
	ResultContains json.RawMessage             `json:"resultContains"`
	Snapshot       bool                        `json:"snapshot"`
	Error          *testcase.ErrorExpect       `json:"error"`
	Fetches        []testcase.FetchExpect      `json:"fetches"`
	Logs           []testcase.LogExpect        `json:"logs"`
	Fixtures       json.RawMessage             `json:"fixtures"`
	TimeoutMs      int                         `json:"timeoutMs"`
	Connections    []testcase.ConnectionExpect `json:"connections"`
	Ctx            *testcase.CtxSeed           `json:"ctx"`
}

// Load reads every tests/*.json of a plugin (through the plugin's FS, so
// an editor's unsaved buffers count), in name order. A plugin without
// tests/ has no files.
func Load(p *checker.Plugin) ([]*testcase.File, error) {
	entries, err := os.ReadDir(p.Abs(testcase.Dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []*testcase.File
	for _, n := range names {
		rel := testcase.Dir + "/" + n
		data, err := checker.ReadPluginFile(p.FS, p.Dir, rel) // no symlink out
		if err != nil {
			return nil, err // it names rel
		}
		out = append(out, Parse(p, rel, data))
	}
	return out, nil
}

// Parse reads one test file. Mistakes land in File.Problems.
func Parse(p *checker.Plugin, rel string, data []byte) *testcase.File {
	f := &testcase.File{Rel: rel, Text: data}
	if len(data) > MaxFileBytes {
		f.Problems = append(f.Problems, testcase.Problem{Message: fmt.Sprintf("the file is %d bytes, more than %d", len(data), MaxFileBytes)})
		return f
	}
	root, serr := jsonpos.Parse(data)
	if serr != nil {
		f.Problems = append(f.Problems, testcase.Problem{Span: checker.Span{Start: serr.Offset, End: serr.Offset}, Message: serr.Message})
		return f
	}
	if root.Kind != jsonpos.Object {
		f.Problems = append(f.Problems, testcase.Problem{Span: root.Span, Message: fmt.Sprintf("a test file must hold one JSON object like { \"tool\": \"lookupBook\", \"cases\": [ … ] }, not %s", root.Kind)})
		return f
	}
	if ds := jsonpos.DuplicateKeys(root); len(ds) > 0 {
		for _, d := range ds {
			e := jsonpos.NewDuplicateKeyError(data, d)
			f.Problems = append(f.Problems, testcase.Problem{Span: e.Dup, Message: e.Message()})
		}
		return f
	}
	v, err := testsValidator()
	if err != nil {
		f.Problems = append(f.Problems, testcase.Problem{Message: "the tests schema does not compile (please report this): " + err.Error()})
		return f
	}
	for _, pr := range v.Validate(root) {
		f.Problems = append(f.Problems, testcase.Problem{Span: pr.Span, Message: pr.Message})
	}
	if len(f.Problems) > 0 {
		return f
	}
	var doc struct {
		Tool  string     `json:"tool"`
		Cases []caseJSON `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		f.Problems = append(f.Problems, testcase.Problem{Message: err.Error()})
		return f
	}
	f.Tool = doc.Tool
	tools := map[string]bool{}
	var toolNames []string
	if p != nil && p.Manifest != nil {
		for _, t := range p.Manifest.Tools {
			if s, ok := checker.Str(t.Name); ok {
				tools[s] = true
				toolNames = append(toolNames, s)
			}
		}
		for _, nt := range p.Manifest.NativeTools {
			for _, n := range nt.Names {
				if s, ok := checker.Str(n); ok && !tools[s] {
					tools[s] = true
					toolNames = append(toolNames, s)
				}
			}
		}
	}
	arr := root.Get("cases")
	seen := map[string]bool{}
	for i, cj := range doc.Cases {
		n := arr.Elems[i]
		c := &testcase.Case{
			File: f, Index: i, Name: cj.Name, Tool: cj.Tool, Input: cj.Input,
			Result: cj.Result, ResultContains: cj.ResultContains, Snapshot: cj.Snapshot,
			Error: cj.Error, Fetches: cj.Fetches, HasFetches: n.Get("fetches") != nil,
			Logs: cj.Logs, HasLogs: n.Get("logs") != nil, Fixtures: cj.Fixtures, TimeoutMs: cj.TimeoutMs,
			Span: checker.SpanOf(n), NameSpan: checker.SpanOf(n.Get("name")),
			Connections: cj.Connections, HasConnections: n.Get("connections") != nil, Ctx: cj.Ctx,
		}
		if c.Tool == "" {
			c.Tool = doc.Tool
		}
		switch {
		case c.Tool == "":
			f.Problems = append(f.Problems, testcase.Problem{Span: c.NameSpan, Message: fmt.Sprintf("case %q names no tool: add \"tool\" to the case or to the file", c.Name)})
		case p != nil && manifestLists(p) && !tools[c.Tool]:
			at := c.NameSpan
			if tn := n.Get("tool"); tn != nil {
				at = checker.SpanOf(tn)
			} else if tn := root.Get("tool"); tn != nil {
				at = checker.SpanOf(tn)
			}
			msg := fmt.Sprintf("plugin.json has no function tool %q", c.Tool)
			if s := suggest.Closest(c.Tool, toolNames); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			} else if len(toolNames) > 0 {
				msg += "; it declares " + strings.Join(toolNames, ", ")
			}
			f.Problems = append(f.Problems, testcase.Problem{Span: at, Message: msg})
		}
		if seen[c.Name] {
			f.Problems = append(f.Problems, testcase.Problem{Span: c.NameSpan, Message: fmt.Sprintf("a case named %q comes earlier in this file: names must be unique (snapshots are stored by name)", c.Name)})
		}
		seen[c.Name] = true
		if c.Error != nil && (len(c.Result) > 0 || len(c.ResultContains) > 0 || c.Snapshot) {
			f.Problems = append(f.Problems, testcase.Problem{Span: checker.SpanOf(n.Get("error")), Message: "a case expects either an error or a result, not both"})
		}
		if len(c.Fixtures) > 0 {
			if _, err := fixtures.Parse(c.Fixtures); err != nil {
				fx := n.Get("fixtures")
				f.Problems = append(f.Problems, testcase.Problem{Span: checker.SpanOf(fx), Message: "fixtures of the case: " + relocate(err.Error(), data, fx.Span.Start)})
			}
		}
		f.Cases = append(f.Cases, c)
	}
	return f
}

// relocate turns the "line:col: msg" of an error inside an embedded
// document starting at base into the position in the whole file.
func relocate(msg string, data []byte, base int) string {
	var line, col int
	if _, err := fmt.Sscanf(msg, "%d:%d:", &line, &col); err != nil {
		return msg
	}
	_, rest, _ := strings.Cut(msg, ": ")
	off := base + checker.NewFile("", data[base:]).OffsetUTF8(line-1, col-1)
	return fixtures.LineCol(data, off) + ": " + rest
}

// manifestLists reports whether the plugin's tools can be read: a
// manifest with a syntax error, or whose "tools" is not a list, says
// nothing about which tools exist (the manifest's own diagnostic is the
// cause; every test case must not repeat it).
func manifestLists(p *checker.Plugin) bool {
	if p.SyntaxError != nil || p.Manifest == nil {
		return false
	}
	tn := p.Manifest.ToolsNode
	return tn == nil || tn.Kind == jsonpos.Array
}
