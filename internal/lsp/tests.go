package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
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

// testFiles parses the plugin's test files as the view sees them.
func (vw *view) testFiles() []*testcase.File {
	if vw.plugin == nil {
		return nil
	}
	files, err := tooltest.Load(vw.plugin)
	if err != nil {
		return nil
	}
	return files
}

// testDiagnostics: see ide.TestDiagnostics.
func testDiagnostics(vw *view) []checker.Diagnostic {
	return ide.TestDiagnostics(vw.testFiles(), vw.tests)
}

// testCases: see ide.TestCases.
func (vw *view) testCases(rel string) []ide.TestCase {
	return ide.TestCases(vw.testFiles(), vw.tests, rel)
}

// runTests runs a test file, one case, or every test of a plugin, keeps
// the results for lenses and diagnostics, and returns them as
// `plugin-lsp test --format json` does (ide.TestsAnswer). The native
// cases run when their module's run is approved (approveNative), and are
// skipped with the reason otherwise.
func (s *Server) runTests(ctx context.Context, args testArgs, token protocol.ProgressToken) ([]testcase.Result, error) {
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	if s.opts.Runner == nil {
		return nil, rpcError(ide.NoSandbox())
	}
	vw := s.check(ps)
	if vw.plugin == nil {
		return nil, rpcError(ide.NoPlugin(ps.dir))
	}
	sel := ide.TestSelection{Case: args.Name}
	if args.URI != "" {
		if r, ok := relTo(ps.dir, pathOf(uri.URI(args.URI))); ok && ide.IsTestFile(r) {
			sel.File = r
		}
	}
	// The view's plugin, as checked: it is immutable and safe for
	// concurrent use, so the run reads the same text the diagnostics came from.
	p := vw.plugin
	suite, err := tooltest.LoadSuite(p)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "tests of %s: %v", ps.dir, err)
	}
	suite.Files = sel.Files(suite.Files)
	s.mu.Lock()
	st := s.config
	progressOK := s.caps.workDoneProgress
	s.mu.Unlock()
	opt := tooltest.Options{Runner: s.opts.Runner, Filter: sel.Filter(), Timeout: st.Timeout}
	if s.opts.NativeRunner != nil {
		approved := map[string]bool{}
		for _, a := range ide.TestApprovals(p, sel.Cases(suite.Files)) {
			approved[a.Module] = s.approveNative(ctx, a)
		}
		opt.NativeSkip = ide.NativeTestSkip(p, approved)
		opt.NativeRun = s.opts.NativeRunner.RunNative
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prog := s.startProgress(ctx, token, progressOK, ide.TestsTitle, cancel)
	defer prog.end("done")
	results, err := tooltest.Run(ctx, []*tooltest.Suite{suite}, opt)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "tests: %v", err)
	}
	if ctx.Err() != nil {
		prog.end("cancelled")
		return nil, protocol.ErrRequestCancelled
	}
	s.mu.Lock()
	if ps.tests == nil {
		ps.tests = ide.TestResults{}
	}
	ps.tests.Keep(results)
	s.schedule(ps) // diagnostics and lenses change
	lens := s.caps.codeLensRefresh
	s.mu.Unlock()
	if lens {
		s.safeGo("codeLens refresh", func() { _ = s.client.CodeLensRefresh(s.ctx) })
	}
	return ide.TestsAnswer(ps.dir, results), nil
}

// acceptSnapshot stores the last result of a failing snapshot case as its
// snapshot, then runs the case again.
func (s *Server) acceptSnapshot(ctx context.Context, args testArgs) ([]testcase.Result, error) {
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	if args.URI == "" {
		return nil, invalidParams("%s: \"uri\" (the test file) is required", CommandAcceptSnapshot)
	}
	rel, _ := relTo(ps.dir, pathOf(uri.URI(args.URI)))
	vw := s.check(ps)
	files := vw.testFiles()
	s.mu.Lock()
	c, r, err := ide.AcceptTarget(files, ps.tests, rel, args.Name)
	s.mu.Unlock()
	if err != nil {
		return nil, invalidParams("%v", err)
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
		return nil, rpcError(ide.NoPlugin(ps.dir))
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
	disk := func(rel string) ([]byte, error) {
		return checker.ReadPluginFile(checker.OSFS{}, vw.plugin.Dir, rel) // no symlink out
	}
	for _, g := range tstypes.Outdated(vw.plugin, disk) {
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
