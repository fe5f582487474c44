package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
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

// Titles of the approval request's actions.
const (
	nativeRunAction    = "Run"
	nativeCancelAction = "Cancel"
)

// nativeApprovalMessage is the question asked before a native tool runs.
func nativeApprovalMessage(nt ide.NativeTool) string {
	hash := nt.ModuleHash
	if hash == "" {
		hash = "unreadable"
	}
	return fmt.Sprintf("Run %s (%s, %s) with full authority on this machine?", nt.Name, nt.Module, hash)
}

// errNativeDeclined answers a plugin.runTool whose approval was declined:
// nothing ran.
func errNativeDeclined(tool string) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s was not run: running a native tool with full authority was declined", tool)
}

// approveNative asks the user, through window/showMessageRequest, whether
// the native tool may run with full authority, unless a run of the same
// module bytes (its hash) was approved before in this session. Only an
// answer of "Run" approves; a dismissed request, an error or a client that
// cannot ask declines.
func (s *Server) approveNative(ctx context.Context, nt ide.NativeTool) bool {
	s.mu.Lock()
	ok := nt.ModuleHash != "" && s.nativeTrusted[nt.ModuleHash]
	s.mu.Unlock()
	if ok {
		return true
	}
	item, err := s.client.ShowMessageRequest(ctx, &protocol.ShowMessageRequestParams{
		Type:    protocol.MessageTypeWarning,
		Message: nativeApprovalMessage(nt),
		Actions: []protocol.MessageActionItem{{Title: nativeRunAction}, {Title: nativeCancelAction}},
	})
	if err != nil || item == nil || item.Title != nativeRunAction {
		return false
	}
	if nt.ModuleHash != "" { // an unreadable module is asked about every time
		s.mu.Lock()
		if s.nativeTrusted == nil {
			s.nativeTrusted = map[string]bool{}
		}
		s.nativeTrusted[nt.ModuleHash] = true
		s.mu.Unlock()
	}
	return true
}

// runNativeTool is plugin.runTool on a native tool: approval first, then
// the harness, with the editor's settings (providers, timeout). The record
// is kept like a function tool's, so lenses, hints and native-reach-at-run
// see it.
func (s *Server) runNativeTool(ctx context.Context, ps *pluginState, vw *view, nt ide.NativeTool, args runToolArgs, token protocol.ProgressToken) (*record.Record, error) {
	if args.Record {
		return nil, invalidParams("%s: \"record\" records brokered fetches; a native tool has none", CommandRunTool)
	}
	// Node imports the module from disk, not the editor's text: the
	// approval names the bytes that will run.
	if text, err := checker.ReadPluginFile(checker.OSFS{}, vw.plugin.Dir, nt.Module); err == nil {
		sum := sha256.Sum256(text)
		nt.ModuleHash = "sha256:" + hex.EncodeToString(sum[:])
	} else {
		nt.ModuleHash = ""
	}
	if !s.approveNative(ctx, nt) {
		return nil, errNativeDeclined(nt.Name)
	}
	p := vw.plugin
	basis := ide.BasisOf(p, args.Tool)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	if s.state == stateShutdown {
		s.mu.Unlock()
		return nil, errShutdown
	}
	st := s.config
	progressOK := s.caps.workDoneProgress
	s.runSeq++
	id := s.runSeq
	if s.runCancels == nil {
		s.runCancels = map[uint64]context.CancelFunc{}
	}
	s.runCancels[id] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.runCancels, id)
		s.mu.Unlock()
	}()
	prog := s.startProgress(ctx, token, progressOK, "Running "+args.Tool+" (full trust)", cancel)
	defer prog.end("done")
	var input json.RawMessage
	if len(args.Input) > 0 {
		input = args.Input
	}
	rec, err := s.opts.NativeRunner.RunNative(ctx, native.Request{
		Plugin: p, Tool: args.Tool, Input: input,
		Providers: st.Providers, Timeout: st.Timeout,
		Progress: prog.report,
	})
	if err != nil {
		if ctx.Err() != nil {
			prog.end("cancelled")
			return nil, protocol.ErrRequestCancelled
		}
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "run %s: %v", args.Tool, err)
	}
	if rec == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "run %s: the runner returned no record", args.Tool)
	}
	if rec.Logs == nil {
		rec.Logs = []record.LogEntry{}
	}
	if rec.Fetches == nil {
		rec.Fetches = []record.FetchEntry{}
	}
	if rec.Connections == nil {
		rec.Connections = []record.Connection{}
	}
	s.mu.Lock()
	ps.runs[args.Tool] = &toolRun{record: rec, input: input, at: time.Now(), basis: basis}
	s.schedule(ps)
	lens, hints := s.caps.codeLensRefresh, s.caps.inlayHintRefresh
	s.mu.Unlock()
	if lens {
		s.safeGo("codeLens refresh", func() { _ = s.client.CodeLensRefresh(s.ctx) })
	}
	if hints {
		s.safeGo("inlayHint refresh", func() { _ = s.client.InlayHintRefresh(s.ctx) })
	}
	return rec, nil
}
