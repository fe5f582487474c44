package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// runToolArgs is the argument of plugin.runTool.
type runToolArgs struct {
	Dir   string          `json:"dir,omitempty"`
	URI   string          `json:"uri,omitempty"`
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input,omitempty"`
	// Record appends each answered response to fixtures.json (needs the
	// setting pluginLsp.providers "real"; see docs/fixtures.md).
	Record bool `json:"record,omitempty"`
}

// ExecuteCommand runs plugin.runTool and plugin.reviewCard.
func (s *Server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	if v, ok, err := s.executeTestCommand(ctx, params); ok {
		return v, err
	}
	switch params.Command {
	case CommandRunTool:
		if len(params.Arguments) != 1 {
			return nil, invalidParams("%s takes one argument {dir?, uri?, tool, input?}", CommandRunTool)
		}
		var args runToolArgs
		if err := json.Unmarshal(params.Arguments[0], &args); err != nil {
			return nil, invalidParams("%s: %v", CommandRunTool, err)
		}
		rec, err := s.runTool(ctx, args, params.WorkDoneToken)
		if err != nil {
			return nil, err
		}
		return json.Marshal(rec)
	case CommandPin:
		return s.pin(ctx, params.Arguments)
	case CommandNativeTool:
		return s.nativeTool(params.Arguments)
	case CommandReviewCard:
		if s.opts.Review == nil {
			break
		}
		return s.reviewCard(params.Arguments)
	}
	return nil, invalidParams("unknown command %q", params.Command)
}

func invalidParams(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, format, args...)
}

// rpcError is an ide failure as a JSON-RPC error: the request's failure is
// InvalidParams, a declined question InvalidRequest, the server's
// InternalError.
func rpcError(f *ide.Failure) error {
	code := jsonrpc2.InternalError
	switch f.Kind {
	case ide.FailInvalid:
		code = jsonrpc2.InvalidParams
	case ide.FailDeclined:
		code = jsonrpc2.InvalidRequest
	}
	return jsonrpc2.Errorf(code, "%s", f.Message)
}

// runTool runs a function tool in the sandbox with the editor's text,
// reporting progress, cancellable by $/cancelRequest or by the progress
// cancel button. The record is kept for lenses, hints and hover, and its
// refused fetches become diagnostics.
func (s *Server) runTool(ctx context.Context, args runToolArgs, token protocol.ProgressToken) (*record.Record, error) {
	if args.Tool == "" {
		return nil, invalidParams("%s: \"tool\" is required", CommandRunTool)
	}
	ps, err := s.pluginOf(args)
	if err != nil {
		return nil, err
	}
	vw := s.runView(ps)
	if vw.plugin == nil {
		return nil, rpcError(ide.NoPlugin(ps.dir))
	}
	// Without a native runner (a build or a test without the harness)
	// a native tool answers why it cannot run here.
	if nt, ok := ide.NativeOf(vw.plugin, args.Tool); ok && s.opts.NativeRunner != nil {
		return s.runNativeTool(ctx, ps, vw, nt, args, token)
	}
	if vw.plugin.Manifest.FunctionTool(args.Tool) == nil {
		return nil, rpcError(ide.NotRunnable(ps.dir, vw.plugin, args.Tool))
	}
	input := args.Input
	if len(input) == 0 {
		input = runner.DefaultInput(vw.plugin, args.Tool)
	}
	if s.opts.Runner == nil {
		return nil, rpcError(ide.NoSandbox())
	}
	// The view's plugin, as checked: it is immutable and safe for
	// concurrent use, so the run reads the same text the diagnostics came from.
	p := vw.plugin
	basis := ide.BasisOf(p, args.Tool)
	ctx, st, prog, finish, err := s.beginRun(ctx, token, ide.RunTitle(args.Tool, false))
	if err != nil {
		return nil, err
	}
	defer finish()

	req := runner.Request{
		Plugin: p, Tool: args.Tool, Input: input,
		Providers: st.Providers, Timeout: st.Timeout,
		Progress: prog.report,
	}
	if why := ide.WhyNoRecord(false, st.Providers); args.Record && why != nil {
		return nil, rpcError(why)
	}
	var rec *record.Record
	var recorded *runner.Recording
	if args.Record {
		rec, recorded, err = runner.RunRecording(ctx, s.opts.Runner, req, "")
	} else {
		rec, err = s.opts.Runner.Run(ctx, req)
	}
	if recorded != nil {
		if recorded.Err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "record %s: %v", args.Tool, recorded.Err)
		}
		// The fixtures this run wrote are no change since it.
		if text, rerr := checker.ReadPluginFile(checker.OSFS{}, p.Dir, checker.FixturesName); rerr == nil {
			basis = basis.With(checker.FixturesName, text)
		}
	}
	if rec, err = ranTool(ctx, prog, args.Tool, rec, err); err != nil {
		return nil, err
	}
	s.mu.Lock()
	prev := ps.runs[args.Tool]
	ps.runs[args.Tool] = &toolRun{record: rec, input: input, at: time.Now(), basis: basis}
	switch {
	case req.Recorder != nil:
		s.schedule(ps) // fixtures.json changed too
	case s.keepViewAfterRun(ps, args.Tool, prev):
		// the same learnt facts as the last run: no check
	default:
		s.scheduleAfterRun(ps) // learnt diagnostics, lenses and hints change
	}
	lens, hints := s.caps.codeLensRefresh, s.caps.inlayHintRefresh
	s.mu.Unlock()
	s.refreshAfterRun(lens, hints)
	return rec, nil
}

// ranTool is the answer of a run of tool that returned rec and err:
// cancelled (the progress ends so), the runner's failure, or rec as the
// run panel reads it (ide.PanelRecord).
func ranTool(ctx context.Context, prog *progress, tool string, rec *record.Record, err error) (*record.Record, error) {
	if err != nil {
		if ctx.Err() != nil {
			prog.end("cancelled")
			return nil, protocol.ErrRequestCancelled
		}
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "run %s: %v", tool, err)
	}
	if rec == nil {
		return nil, rpcError(ide.NoRecordReturned(tool))
	}
	return ide.PanelRecord(rec), nil
}

// refreshAfterRun asks the client for code lenses (lens) and inlay hints
// (hints) again, in the background: a run changed them. The flags are the
// client's refresh support, read by the caller under the lock.
func (s *Server) refreshAfterRun(lens, hints bool) {
	if lens {
		s.safeGo("codeLens refresh", func() { _ = s.client.CodeLensRefresh(s.ctx) })
	}
	if hints {
		s.safeGo("inlayHint refresh", func() { _ = s.client.InlayHintRefresh(s.ctx) })
	}
}

// beginRun begins a run: its context (cancelled by $/cancelRequest, the
// progress's cancel button, or shutdown, which cancels the runs in
// flight), the settings, and its progress under title (when the client
// gave a token or accepts one it did not ask for). After shutdown it
// refuses (errShutdown). finish ends the progress ("done" unless it ended
// already), unregisters the run and cancels its context.
func (s *Server) beginRun(ctx context.Context, token protocol.ProgressToken, title string) (_ context.Context, st Settings, prog *progress, finish func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	if s.state == stateShutdown {
		s.mu.Unlock()
		cancel()
		return ctx, st, nil, nil, errShutdown
	}
	s.runSeq++
	id := s.runSeq
	if s.runCancels == nil {
		s.runCancels = map[uint64]context.CancelFunc{}
	}
	s.runCancels[id] = cancel
	st, progressOK := s.config, s.caps.workDoneProgress
	s.mu.Unlock()
	prog = s.startProgress(ctx, token, progressOK, title, cancel)
	return ctx, st, prog, func() {
		prog.end("done")
		s.mu.Lock()
		delete(s.runCancels, id)
		s.mu.Unlock()
		cancel()
	}, nil
}

// progress reports one run through $/progress (when the client gave or
// accepts a token); every method is a no-op otherwise.
type progress struct {
	s     *Server
	ctx   context.Context
	token protocol.ProgressToken
	once  sync.Once
	ended atomic.Bool // reports after the end (a late runner callback) are dropped
}

var progressSeq atomic.Int64

// startProgress begins a work-done progress. cancel is called when the
// user presses the cancel button.
func (s *Server) startProgress(ctx context.Context, token protocol.ProgressToken, canCreate bool, title string, cancel func()) *progress {
	pr := &progress{s: s, ctx: context.WithoutCancel(ctx)}
	if token == nil && canCreate {
		t := protocol.String("plugin-lsp-run-" + strconv.FormatInt(progressSeq.Add(1), 10))
		if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: t}); err == nil {
			token = t
		}
	}
	if token == nil {
		return pr
	}
	pr.token = token
	s.mu.Lock()
	if s.progressCancel == nil {
		s.progressCancel = map[string]func(){}
	}
	s.progressCancel[tokenKey(token)] = cancel
	s.mu.Unlock()
	pr.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: text.Visible(title), Cancellable: new(true)})
	return pr
}

func (pr *progress) send(v any) {
	raw, err := protocol.Marshal(v)
	if err != nil {
		return
	}
	_ = pr.s.client.Progress(pr.ctx, &protocol.ProgressParams{Token: pr.token, Value: raw})
}

func (pr *progress) report(msg string) {
	if pr.token == nil || pr.ended.Load() {
		return
	}
	msg = text.Visible(msg)
	pr.send(&protocol.WorkDoneProgressReport{Kind: "report", Message: &msg})
}

func (pr *progress) end(msg string) {
	if pr.token == nil {
		return
	}
	pr.once.Do(func() {
		pr.ended.Store(true)
		msg = text.Visible(msg)
		pr.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: &msg})
		pr.s.mu.Lock()
		delete(pr.s.progressCancel, tokenKey(pr.token))
		pr.s.mu.Unlock()
	})
}

func tokenKey(t protocol.ProgressToken) string {
	switch t := t.(type) {
	case protocol.String:
		return "s:" + string(t)
	case protocol.Integer:
		return "i:" + strconv.FormatInt(int64(t), 10)
	}
	return fmt.Sprint(t)
}

// WorkDoneProgressCancel stops the run behind a progress token.
func (s *Server) WorkDoneProgressCancel(ctx context.Context, params *protocol.WorkDoneProgressCancelParams) error {
	s.mu.Lock()
	cancel := s.progressCancel[tokenKey(params.Token)]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}
