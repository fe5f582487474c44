package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/tstypes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/tooltest"
)

// Commands of the author loop: tool tests and types.
const (
	CommandRunTests       = "plugin.runTests"
	CommandAcceptSnapshot = "plugin.acceptSnapshot"
	CommandGenerateTypes  = "plugin.generateTypes"
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

// testFiles parses the plugin's test files as the snapshot sees them.
func (sn *snapshot) testFiles() []*tooltest.File {
	if sn.plugin == nil {
		return nil
	}
	files, err := tooltest.Load(sn.plugin)
	if err != nil {
		return nil
	}
	return files
}

// resultFor is the last result of case c, unless the case was edited since
// it ran (an outcome for other expectations would mislead).
func (sn *snapshot) resultFor(c *tooltest.Case) *tooltest.Result {
	r := sn.tests[testKey(c.File.Rel, c.Name)]
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
func testDiagnostics(sn *snapshot) []checker.Diagnostic {
	var out []checker.Diagnostic
	for _, f := range sn.testFiles() {
		for _, pr := range f.Problems {
			out = append(out, checker.Diagnostic{File: f.Rel, Span: pr.Span, Severity: checker.Error, Message: "test file: " + pr.Message})
		}
		for _, c := range f.Cases {
			r := sn.resultFor(c)
			if r == nil || r.Status == tooltest.Pass {
				continue
			}
			msg := fmt.Sprintf("test %s failed:\n%s", c.ID(), strings.TrimRight(tooltest.FailureText(r, ""), "\n"))
			out = append(out, checker.Diagnostic{File: f.Rel, Span: c.NameSpan, Severity: checker.Error, Message: msg})
		}
	}
	return out
}

// testLenses: "▶ Run all" at the top of a test file, "▶ Run test" (then
// the outcome) on each case.
func (s *Server) testLenses(sn *snapshot, rel string) []protocol.CodeLens {
	if !isTestFile(rel) {
		return nil
	}
	var file *tooltest.File
	for _, f := range sn.testFiles() {
		if f.Rel == rel {
			file = f
		}
	}
	if file == nil || len(file.Problems) > 0 {
		return nil
	}
	f := sn.file(rel)
	u := string(uriFor(sn.docs, sn.plugin.Abs(rel)))
	var out []protocol.CodeLens
	passed, failed, ran := 0, 0, 0
	for _, c := range file.Cases {
		arg, _ := json.Marshal(testArgs{URI: u, Name: c.Name})
		title := "▶ Run test"
		if r := sn.resultFor(c); r != nil {
			ran++
			if r.Status == tooltest.Pass {
				passed++
				title = fmt.Sprintf("✓ passed · %.0f ms · ▶ Run again", r.DurationMs)
			} else {
				failed++
				title = fmt.Sprintf("✗ failed (%s) · ▶ Run again", plural(len(r.Failures), "difference", "differences"))
			}
		}
		out = append(out, protocol.CodeLens{Range: sn.enc.toRange(f, c.NameSpan),
			Command: protocol.Command{Title: title, Command: CommandRunTests, Arguments: []protocol.LSPAny{arg}}})
	}
	if len(file.Cases) > 0 {
		arg, _ := json.Marshal(testArgs{URI: u})
		title := fmt.Sprintf("▶ Run all %d tests", len(file.Cases))
		if ran > 0 {
			title = fmt.Sprintf("✓ %d passed", passed)
			if failed > 0 {
				title += fmt.Sprintf(" · ✗ %d failed", failed)
			}
			title += " · ▶ Run all"
		}
		at := checker.Span{}
		if len(file.Cases) > 0 {
			at = checker.Span{Start: 0, End: 1}
		}
		out = append([]protocol.CodeLens{{Range: sn.enc.toRange(f, at),
			Command: protocol.Command{Title: title, Command: CommandRunTests, Arguments: []protocol.LSPAny{arg}}}}, out...)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
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
	sn := s.check(ps)
	if sn.plugin == nil {
		return nil, invalidParams("%s has no plugin.json", ps.dir)
	}
	rel := ""
	if args.URI != "" {
		if r, ok := relTo(ps.dir, pathOf(uri.URI(args.URI))); ok && isTestFile(r) {
			rel = r
		}
	}
	// The snapshot's plugin, as checked: it is immutable and safe for
	// concurrent use, so the run reads the same text the diagnostics came from.
	p := sn.plugin
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
	sn := s.check(ps)
	var c *tooltest.Case
	for _, f := range sn.testFiles() {
		for _, x := range f.Cases {
			if f.Rel == rel && x.Name == args.Name {
				c = x
			}
		}
	}
	if c == nil || !c.Snapshot {
		return nil, invalidParams("%s: %s has no snapshot case %q", CommandAcceptSnapshot, rel, args.Name)
	}
	err = tooltest.Accept(sn.plugin, c, r.Record.Result)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "accept snapshot: %v", err)
	}
	return s.runTests(ctx, args, nil)
}

// testActions offers "Accept the new result as snapshot" on a failing
// snapshot case whose tool returned.
func (s *Server) testActions(sn *snapshot, rel string, want checker.Span) []protocol.CommandOrCodeAction {
	if !isTestFile(rel) {
		return nil
	}
	var out []protocol.CommandOrCodeAction
	for _, f := range sn.testFiles() {
		if f.Rel != rel {
			continue
		}
		for _, c := range f.Cases {
			r := sn.resultFor(c)
			if !c.Snapshot || r == nil || r.Status != tooltest.Fail || r.Record == nil || !r.Record.OK || !overlaps(c.Span, want) {
				continue
			}
			arg, _ := json.Marshal(testArgs{URI: string(uriFor(sn.docs, sn.plugin.Abs(rel))), Name: c.Name})
			kind := protocol.CodeActionKindQuickFix
			out = append(out, &protocol.CodeAction{
				Title:       "Accept the new result as snapshot",
				Kind:        &kind,
				IsPreferred: new(true),
				Command:     protocol.Command{Title: "Accept the new result as snapshot", Command: CommandAcceptSnapshot, Arguments: []protocol.LSPAny{arg}},
			})
		}
	}
	return out
}

// typesActions offers "Generate types" where the plugin has no
// .plugin/types.d.ts yet: on plugin.json and on its pages.
func (s *Server) typesActions(sn *snapshot, rel string) []protocol.CommandOrCodeAction {
	if sn.plugin == nil || !(rel == checker.ManifestName || strings.HasSuffix(rel, ".ts")) {
		return nil
	}
	if _, err := os.Lstat(sn.plugin.Abs(tstypes.TypesPath)); err == nil {
		return nil
	}
	arg, _ := json.Marshal(testArgs{Dir: sn.plugin.Dir})
	kind := protocol.CodeActionKindSource
	return []protocol.CommandOrCodeAction{&protocol.CodeAction{
		Title: "Generate types (.plugin/types.d.ts and tsconfig.json) for the host API and tool inputs",
		Kind:  &kind,
		Command: protocol.Command{Title: "Generate types", Command: CommandGenerateTypes,
			Arguments: []protocol.LSPAny{arg}},
	}}
}

// generateTypes writes .plugin/types.d.ts (and tsconfig.json when absent)
// from the editor's text of plugin.json.
func (s *Server) generateTypes(args testArgs) ([]string, error) {
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	sn := s.check(ps)
	if sn.plugin == nil {
		return nil, invalidParams("%s has no plugin.json", ps.dir)
	}
	wrote, err := tstypes.WriteFiles(sn.plugin)
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
func (s *Server) keepTypesFresh(sn *snapshot) bool {
	if sn.plugin == nil || sn.plugin.SyntaxError != nil {
		return false
	}
	wrote := false
	for _, g := range tstypes.GeneratedFiles(sn.plugin) {
		if g.Want == nil {
			continue
		}
		old, err := checker.ReadPluginFile(checker.OSFS{}, sn.plugin.Dir, g.Path) // no symlink out
		if err != nil || !strings.HasPrefix(string(old), g.Header) {
			continue // missing, or not ours: leave it
		}
		if string(old) == string(g.Want) {
			continue
		}
		if err := checker.WritePluginFile(sn.plugin.Dir, g.Path, g.Want); err != nil {
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
