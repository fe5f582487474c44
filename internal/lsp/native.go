package lsp

import (
	"context"
	"encoding/json"
	"time"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/native"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// NativeRunner runs one native tool (the full-trust lane) for
// plugin.runTool. The binary wires the Node.js harness
// (internal/runner/native); tests wire a fake that records what it was
// asked to run.
type NativeRunner interface {
	RunNative(ctx context.Context, req native.Request) (*record.Record, error)
}

// HarnessRunner is the NativeRunner of the binary: native.Run.
type HarnessRunner struct {
	// Node is the node executable ("" for node on PATH).
	Node string
}

// RunNative runs req in the Node.js harness.
func (h HarnessRunner) RunNative(ctx context.Context, req native.Request) (*record.Record, error) {
	if req.Node == "" {
		req.Node = h.Node
	}
	return native.Run(ctx, req)
}

// approveNative asks the user (ask: window/showMessageRequest) whether
// the run a needs may have full authority, unless the same module bytes
// were approved before in this session (ide.NativeTrust).
func (s *Server) approveNative(ctx context.Context, a ide.NativeApproval) bool {
	s.mu.Lock()
	ok := s.nativeTrusted.Approved(a)
	s.mu.Unlock()
	if ok {
		return true
	}
	if !s.ask(ctx, a.Question()) {
		return false
	}
	s.mu.Lock()
	if s.nativeTrusted == nil {
		s.nativeTrusted = ide.NativeTrust{}
	}
	s.nativeTrusted.Remember(a)
	s.mu.Unlock()
	return true
}

// runNativeTool is plugin.runTool on a native tool: approval first, then
// the harness, with the editor's settings (providers, timeout). The record
// is kept like a function tool's, so lenses, hints and native-reach-at-run
// see it.
func (s *Server) runNativeTool(ctx context.Context, ps *pluginState, vw *view, nt ide.NativeTool, args runToolArgs, token protocol.ProgressToken) (*record.Record, error) {
	if args.Record {
		return nil, rpcError(ide.WhyNoRecord(true, ""))
	}
	// Node imports the module from disk, not the editor's text: the
	// approval names the bytes that will run.
	if !s.approveNative(ctx, ide.ApprovalOf(vw.plugin, nt)) {
		return nil, rpcError(ide.NativeDeclined(nt.Name))
	}
	p := vw.plugin
	basis := ide.BasisOf(p, args.Tool)
	ctx, st, prog, finish, err := s.beginRun(ctx, token, ide.RunTitle(args.Tool, true))
	if err != nil {
		return nil, err
	}
	defer finish()
	var input json.RawMessage
	if len(args.Input) > 0 {
		input = args.Input
	}
	rec, err := s.opts.NativeRunner.RunNative(ctx, native.Request{
		Plugin: p, Tool: args.Tool, Input: input,
		Providers: st.Providers, Timeout: st.Timeout,
		Progress: prog.report,
	})
	if rec, err = ranTool(ctx, prog, args.Tool, rec, err); err != nil {
		return nil, err
	}
	s.mu.Lock()
	ps.runs[args.Tool] = &toolRun{record: rec, input: input, at: time.Now(), basis: basis}
	s.schedule(ps)
	lens, hints := s.caps.codeLensRefresh, s.caps.inlayHintRefresh
	s.mu.Unlock()
	s.refreshAfterRun(lens, hints)
	return rec, nil
}
