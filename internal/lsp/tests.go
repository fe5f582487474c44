package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/tooltest"
)

// Commands of the author loop: tool tests and types.
const (
	CommandRunTests       = ide.CommandRunTests
	CommandAcceptSnapshot = ide.CommandAcceptSnapshot
	CommandGenerateTypes  = ide.CommandGenerateTypes
)

// testArgs is the argument of plugin.runTests and plugin.acceptSnapshot:
// a test file (uri) and optionally one case (name); or a plugin (dir, or
// the uri of any other file in it) for all its tests.
type testArgs struct {
	Dir  string `json:"dir,omitempty"`
	URI  string `json:"uri,omitempty"`
	Name string `json:"name,omitempty"`
}

// testKey identifies a case across edits: its file and name.
func testKey(rel, name string) string { return rel + "\x00" + name }

// testFiles parses the plugin's test files as the view sees them.
func (vw *view) testFiles() []*tooltest.File {
	if vw.plugin == nil {
		return nil
	}
	files, err := tooltest.Load(vw.plugin)
	if err != nil {
		return nil
	}
	return files
}

// resultFor is the last result of case c, unless the case was edited since
// it ran (an outcome for other expectations would mislead).
func (vw *view) resultFor(c *tooltest.Case) *tooltest.Result {
	r := vw.tests[testKey(c.File.Rel, c.Name)]
	if r == nil || r.Case == nil || caseText(r.Case) != caseText(c) {
		return nil
	}
	return r
}

func caseText(c *tooltest.Case) string {
	if c.Span.Start < 0 || c.Span.End > len(c.File.Text) || c.Span.Start > c.Span.End {
		return ""
	}
	return string(c.File.Text[c.Span.Start:c.Span.End])
}

func isTestFile(rel string) bool {
	return strings.HasPrefix(rel, tooltest.Dir+"/") && strings.Count(rel, "/") == 1 && strings.HasSuffix(rel, ".json")
}

// testDiagnostics are a test file's mistakes (errors) and the failures of
// the cases' last runs (errors on the case name, the differences in the
// message).
func testDiagnostics(vw *view) []checker.Diagnostic {
	var out []checker.Diagnostic
	for _, f := range vw.testFiles() {
		for _, pr := range f.Problems {
			out = append(out, checker.Diagnostic{File: f.Rel, Span: pr.Span, Severity: checker.Error, Message: "test file: " + pr.Message})
		}
		for _, c := range f.Cases {
			r := vw.resultFor(c)
			if r == nil || r.Status == tooltest.Pass {
				continue
			}
			msg := fmt.Sprintf("test %s failed:\n%s", c.ID(), strings.TrimRight(tooltest.FailureText(r, ""), "\n"))
			out = append(out, checker.Diagnostic{File: f.Rel, Span: c.NameSpan, Severity: checker.Error, Message: msg})
		}
	}
	return out
}

// testCases are the cases of test file rel with their last results, as
// package ide reads them (lenses, the accept quick fix); nil when the file
// has problems (its diagnostics say which).
func (vw *view) testCases(rel string) []ide.TestCase {
	var out []ide.TestCase
	for _, f := range vw.testFiles() {
		if f.Rel != rel || len(f.Problems) > 0 {
			continue
		}
		for _, c := range f.Cases {
			tc := ide.TestCase{Name: c.Name, Span: c.Span, NameSpan: c.NameSpan, Snapshot: c.Snapshot}
			if r := vw.resultFor(c); r != nil {
				tc.Result = &ide.TestResult{Status: string(r.Status), DurationMs: r.DurationMs, Differences: len(r.Failures), Returned: r.Record != nil && r.Record.OK}
			}
			out = append(out, tc)
		}
	}
	return out
}

// runTests runs a test file, one case, or every test of a plugin, keeps
// the results for lenses and diagnostics, and returns them as
// `plugin-lsp test --format json` does.
func (s *Server) runTests(ctx context.Context, args testArgs, token protocol.ProgressToken) ([]tooltest.Result, error) {
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	if s.opts.Runner == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "the sandbox is not available in this build of plugin-lsp")
	}
	vw := s.check(ps)
	if vw.plugin == nil {
		return nil, invalidParams("%s has no plugin.json", ps.dir)
	}
	rel := ""
	if args.URI != "" {
		if r, ok := relTo(ps.dir, pathOf(uri.URI(args.URI))); ok && isTestFile(r) {
			rel = r
		}
	}
	// The view's plugin, as checked: it is immutable and safe for
	// concurrent use, so the run reads the same text the diagnostics came from.
	p := vw.plugin
	suite, err := tooltest.LoadSuite(p)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "tests of %s: %v", ps.dir, err)
	}
	if rel != "" {
		var keep []*tooltest.File
		for _, f := range suite.Files {
			if f.Rel == rel {
				keep = append(keep, f)
			}
		}
		suite.Files = keep
	}
	var filter *regexp.Regexp
	if args.Name != "" {
		filter = regexp.MustCompile("/" + regexp.QuoteMeta(args.Name) + "$")
	}
	s.mu.Lock()
	st := s.config
	progressOK := s.caps.workDoneProgress
	s.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prog := s.startProgress(ctx, token, progressOK, "Running tests", cancel)
	defer prog.end("done")
	results, err := tooltest.Run(ctx, []*tooltest.Suite{suite}, tooltest.Options{Runner: s.opts.Runner, Filter: filter, Timeout: st.Timeout})
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "tests: %v", err)
	}
	if ctx.Err() != nil {
		prog.end("cancelled")
		return nil, protocol.ErrRequestCancelled
	}
	s.mu.Lock()
	if ps.tests == nil {
		ps.tests = map[string]*tooltest.Result{}
	}
	for i := range results {
		r := results[i]
		if r.Case != nil {
			ps.tests[testKey(r.File, r.Name)] = &r
		}
	}
	s.schedule(ps) // diagnostics and lenses change
	lens := s.caps.codeLensRefresh
	s.mu.Unlock()
	if lens {
		s.safeGo("codeLens refresh", func() { _ = s.client.CodeLensRefresh(s.ctx) })
	}
	for i := range results {
		results[i].Plugin = ps.dir
	}
	return results, nil
}

// acceptSnapshot stores the last result of a failing snapshot case as its
// snapshot, then runs the case again.
func (s *Server) acceptSnapshot(ctx context.Context, args testArgs) ([]tooltest.Result, error) {
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	if args.URI == "" {
		return nil, invalidParams("%s: \"uri\" (the test file) is required", CommandAcceptSnapshot)
	}
	rel, _ := relTo(ps.dir, pathOf(uri.URI(args.URI)))
	s.mu.Lock()
	r := ps.tests[testKey(rel, args.Name)]
	s.mu.Unlock()
	if r == nil || r.Record == nil || !r.Record.OK {
		return nil, invalidParams("%s: case %q has no result to accept: run it first", CommandAcceptSnapshot, args.Name)
	}
	vw := s.check(ps)
	var c *tooltest.Case
	for _, f := range vw.testFiles() {
		for _, x := range f.Cases {
			if f.Rel == rel && x.Name == args.Name {
				c = x
			}
		}
	}
	if c == nil || !c.Snapshot {
		return nil, invalidParams("%s: %s has no snapshot case %q", CommandAcceptSnapshot, rel, args.Name)
	}
	err = tooltest.Accept(vw.plugin, c, r.Record.Result)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "accept snapshot: %v", err)
	}
	return s.runTests(ctx, args, nil)
}

// generateTypes writes .plugin/types.d.ts (and tsconfig.json when absent)
// from the editor's text of plugin.json.
func (s *Server) generateTypes(args testArgs) ([]string, error) {
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	vw := s.check(ps)
	if vw.plugin == nil {
		return nil, invalidParams("%s has no plugin.json", ps.dir)
	}
	wrote, err := tstypes.WriteFiles(vw.plugin)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "types: %v", err)
	}
	if wrote == nil {
		wrote = []string{}
	}
	return wrote, nil
}

// keepTypesFresh rewrites .plugin/types.d.ts (and .plugin/native.d.ts)
// after a check when the file exists and no longer matches the manifest
// (a tool or a grant changed) or the native modules.
// It never creates the file (that is "Generate types") and never writes
// from a manifest that does not parse. It reports whether it wrote.
func (s *Server) keepTypesFresh(vw *view) bool {
	if vw.plugin == nil || vw.plugin.SyntaxError != nil {
		return false
	}
	wrote := false
	for _, g := range tstypes.GeneratedFiles(vw.plugin) {
		if g.Want == nil {
			continue
		}
		old, err := checker.ReadPluginFile(checker.OSFS{}, vw.plugin.Dir, g.Path) // no symlink out
		if err != nil || !strings.HasPrefix(string(old), g.Header) {
			continue // missing, or not ours: leave it
		}
		if string(old) == string(g.Want) {
			continue
		}
		if err := checker.WritePluginFile(vw.plugin.Dir, g.Path, g.Want); err != nil {
			s.logf("types: %v", err)
			continue
		}
		wrote = true
	}
	return wrote
}

// executeTestCommand runs the commands of this file; ok false when cmd is
// not one of them.
func (s *Server) executeTestCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, bool, error) {
	var args testArgs
	switch params.Command {
	case CommandRunTests, CommandAcceptSnapshot, CommandGenerateTypes:
		if len(params.Arguments) > 1 {
			return nil, true, invalidParams("%s takes one argument {dir?, uri?, name?}", params.Command)
		}
		if len(params.Arguments) == 1 {
			if err := json.Unmarshal(params.Arguments[0], &args); err != nil {
				return nil, true, invalidParams("%s: %v", params.Command, err)
			}
		}
	default:
		return nil, false, nil
	}
	var v any
	var err error
	switch params.Command {
	case CommandRunTests:
		v, err = s.runTests(ctx, args, params.WorkDoneToken)
	case CommandAcceptSnapshot:
		v, err = s.acceptSnapshot(ctx, args)
	case CommandGenerateTypes:
		v, err = s.generateTypes(args)
	}
	if err != nil {
		return nil, true, err
	}
	out, err := json.Marshal(v)
	return out, true, err
}
