package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/native"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
)

func (c *testClient) ShowMessageRequest(ctx context.Context, p *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	c.mu.Lock()
	ask := c.askMessage
	c.mu.Unlock()
	if ask == nil {
		return nil, protocol.ErrRequestCancelled
	}
	return ask(p)
}

// fakeNative is a NativeRunner that records what it was asked to run, in
// the order of events it shares with the approval question.
type fakeNative struct {
	mu     sync.Mutex
	events *[]string
	reqs   []native.Request
}

func (f *fakeNative) RunNative(ctx context.Context, req native.Request) (*record.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	*f.events = append(*f.events, "run "+req.Tool)
	f.reqs = append(f.reqs, req)
	return &record.Record{
		OK: true, Claim: req.Tool + ":1", Lane: "native",
		Result:      json.RawMessage(`{"sent":false}`),
		Approval:    &record.Approval{Required: true},
		Connections: []record.Connection{{Protocol: "tcp", Host: "149.154.167.50", Port: 443, Refused: "fake-providers"}},
	}, nil
}

// plugin.runTool on a native tool asks window/showMessageRequest before
// anything runs; Cancel (or a dismissed question) runs nothing; Run runs
// it and is remembered for the module's bytes, so the next run of any tool
// of that module is not asked again, until the module changes. The lens
// sits on each declared name in plugin.json and on each key in the module.
func TestNativeRunAsksFirst(t *testing.T) {
	dir := copyExample(t)
	var mu sync.Mutex
	var events []string
	fn := &fakeNative{events: &events}
	h := newHarness(t, Options{Runner: &fakeRunner{}, NativeRunner: fn})
	answer := ide.NativeCancelAction
	var asked []*protocol.ShowMessageRequestParams
	h.client.askMessage = func(p *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
		fn.mu.Lock()
		events = append(events, "ask")
		fn.mu.Unlock()
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, p)
		if answer == "" {
			return nil, nil // dismissed
		}
		return &protocol.MessageActionItem{Title: answer}, nil
	}
	h.initialize(dir, richCaps())
	manifest := filepath.Join(dir, "plugin.json")
	module := filepath.Join(dir, "native", "telegram.js")
	h.open(manifest)
	h.open(module)
	h.waitChecked(dir)

	// The lenses: both names in the manifest, both keys in the module.
	lensTitles := func(path string) []string {
		ls, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range ls {
			if l.Command.Command == CommandRunTool {
				out = append(out, l.Command.Title)
			}
		}
		return out
	}
	if got := strings.Join(lensTitles(module), "|"); got != "▶ Run tg.sendMessage|▶ Run tg.readChat" {
		t.Errorf("module lenses: %q", got)
	}
	if got := strings.Join(lensTitles(manifest), "|"); !strings.Contains(got, "▶ Run tg.sendMessage|▶ Run tg.readChat") {
		t.Errorf("manifest lenses: %q", got)
	}

	run := func(tool string) (*record.Record, error) {
		res, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": dir, "tool": tool}))
		if err != nil {
			return nil, err
		}
		var rec record.Record
		if err := json.Unmarshal(res, &rec); err != nil {
			t.Fatalf("record %s: %v", res, err)
		}
		return &rec, nil
	}
	snapshot := func() string {
		fn.mu.Lock()
		defer fn.mu.Unlock()
		return strings.Join(events, ",")
	}

	if _, err := run("tg.sendMessage"); err == nil || !strings.Contains(err.Error(), "declined") {
		t.Fatalf("Cancel: %v", err)
	}
	mu.Lock()
	answer = ""
	mu.Unlock()
	if _, err := run("tg.sendMessage"); err == nil {
		t.Fatal("a dismissed question ran the tool")
	}
	if got := snapshot(); got != "ask,ask" {
		t.Fatalf("after Cancel and a dismissal: %q (nothing may run)", got)
	}
	if len(asked) != 2 || asked[0].Type != protocol.MessageTypeWarning || len(asked[0].Actions) != 2 ||
		asked[0].Actions[0].Title != "Run" || asked[0].Actions[1].Title != "Cancel" ||
		!strings.HasPrefix(asked[0].Message, "Run tg.sendMessage (native/telegram.js, sha256:") ||
		!strings.HasSuffix(asked[0].Message, ") with full authority on this machine?") {
		t.Fatalf("question: %s", dump(asked))
	}

	mu.Lock()
	answer = ide.NativeRunAction
	mu.Unlock()
	rec, err := run("tg.sendMessage")
	if err != nil || rec.Lane != "native" || rec.Approval == nil || !rec.Approval.Required || len(rec.Connections) != 1 {
		t.Fatalf("Run: %v %+v", err, rec)
	}
	if _, err := run("tg.readChat"); err != nil { // the same module bytes: approved already
		t.Fatal(err)
	}
	if got := snapshot(); got != "ask,ask,ask,run tg.sendMessage,run tg.readChat" {
		t.Fatalf("events %q", got)
	}

	// After the run the lens shows its outcome.
	if got := lensTitles(module); len(got) != 2 || got[0] == "▶ Run tg.sendMessage" {
		t.Errorf("module lenses after the run: %q", got)
	}

	// Changed bytes are another approval.
	text, _ := os.ReadFile(module)
	os.WriteFile(module, append(text, []byte("\n// changed\n")...), 0o644)
	mu.Lock()
	answer = ide.NativeCancelAction
	mu.Unlock()
	if _, err := run("tg.sendMessage"); err == nil {
		t.Fatal("a changed module ran on the old approval")
	}
	if got := snapshot(); got != "ask,ask,ask,run tg.sendMessage,run tg.readChat,ask" {
		t.Fatalf("events after the change %q", got)
	}
}

// telegramNative answers the example's native cases as the harness does
// under fake providers: the MTProto socket refused, a message without text
// an InputError. runs counts the calls.
type telegramNative struct {
	mu   sync.Mutex
	runs []string
}

func (f *telegramNative) RunNative(ctx context.Context, req native.Request) (*record.Record, error) {
	f.mu.Lock()
	f.runs = append(f.runs, req.Tool)
	f.mu.Unlock()
	refused := []record.Connection{{Protocol: "tcp", Host: "149.154.167.50", Port: 443, Refused: "fake-providers"}}
	rec := &record.Record{Lane: "native", Claim: req.Tool + ":1"}
	var in struct{ Text *string }
	_ = json.Unmarshal(req.Input, &in)
	switch {
	case req.Tool == "tg.sendMessage" && in.Text == nil:
		rec.Error = &record.RunError{Name: "InputError", Message: "input: text is required"}
	case req.Tool == "tg.sendMessage":
		rec.Error = &record.RunError{Name: "Error", Message: "refused the tcp connection to 149.154.167.50:443 (fake providers refuse every connection)"}
		rec.Connections = refused
	default:
		rec.Error = &record.RunError{Name: "Error", Message: "fake providers refuse every connection"}
		rec.Connections = refused
	}
	return rec, nil
}

// plugin.runTests runs the native cases too, after the question
// plugin.runTool asks (one per module, naming the module's tools the
// cases run): Cancel or a dismissed question skips them with the reason
// (never passed: their lens and a warning say so) while the function-tool
// cases still run; Run runs them with the native runner, and the approval
// is remembered for the module's bytes, by plugin.runTool too.
func TestNativeTestsAskFirst(t *testing.T) {
	dir := copyExample(t)
	fn := &telegramNative{}
	h := newHarness(t, Options{Runner: searchRunner(404), NativeRunner: fn})
	var mu sync.Mutex
	answer := ide.NativeCancelAction
	var asked []string
	h.client.askMessage = func(p *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, p.Message)
		if answer == "" {
			return nil, nil // dismissed
		}
		return &protocol.MessageActionItem{Title: answer}, nil
	}
	setAnswer := func(a string) { mu.Lock(); answer = a; mu.Unlock() }
	questions := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), asked...) }
	h.initialize(dir, protocol.ClientCapabilities{})
	file := filepath.Join(dir, "tests", "telegram.json")
	h.open(file)
	h.waitChecked(dir)

	runAll := func() map[string]testcase.Result {
		t.Helper()
		raw, _ := json.Marshal(map[string]any{"dir": dir})
		res, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandRunTests, Arguments: []protocol.LSPAny{raw}})
		if err != nil {
			t.Fatal(err)
		}
		var rs []testcase.Result
		if err := json.Unmarshal(res, &rs); err != nil {
			t.Fatalf("results %s: %v", res, err)
		}
		out := map[string]testcase.Result{}
		for _, r := range rs {
			out[r.Tool+"/"+r.Name] = r
		}
		return out
	}
	nativeIDs := []string{
		"tg.sendMessage/the MTProto socket is refused under fake providers",
		"tg.sendMessage/a message without text is an InputError",
		"tg.readChat/reading a chat opens the same socket",
	}
	lenses := func() string {
		t.Helper()
		ls, err := h.server.CodeLens(h.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(file)}})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(lensTitles(ls), "|")
	}

	for i, a := range []string{ide.NativeCancelAction, ""} {
		setAnswer(a)
		rs := runAll()
		if q := questions(); len(q) != i+1 || !regexp.MustCompile(`^Run tg\.sendMessage, tg\.readChat \(native/telegram\.js, sha256:[0-9a-f]{64}\) with full authority on this machine\?$`).MatchString(q[i]) {
			t.Fatalf("answer %q: questions %q", a, q)
		}
		for _, id := range nativeIDs {
			r := rs[id]
			if r.Status != testcase.Skip || r.Record != nil || !strings.Contains(r.Skipped, "running it with full authority on this machine was not approved") {
				t.Errorf("answer %q: %s: %+v", a, id, r)
			}
		}
		if r := rs["lookupBook/finds The Hobbit by ISBN"]; r.Status == testcase.Skip || r.Record == nil {
			t.Errorf("answer %q: a function-tool case did not run: %+v", a, r)
		}
		fn.mu.Lock()
		ran := len(fn.runs)
		fn.mu.Unlock()
		if ran != 0 {
			t.Fatalf("answer %q: the native runner ran %d cases", a, ran)
		}
	}
	if got := lenses(); got != "✓ 0 passed · ⊘ 3 skipped · ▶ Run all|⊘ skipped · ▶ Run again|⊘ skipped · ▶ Run again|⊘ skipped · ▶ Run again" {
		t.Errorf("lenses after the skipped run: %q", got)
	}
	pd := h.waitDiags(file, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 3 })
	for _, d := range pd.Diagnostics {
		if d.Severity != protocol.DiagnosticSeverityWarning || !strings.Contains(dump(d.Message), " was skipped: tg.") {
			t.Errorf("diagnostic %s", dump(d))
		}
	}

	setAnswer(ide.NativeRunAction)
	rs := runAll()
	for _, id := range nativeIDs {
		if r := rs[id]; r.Status != testcase.Pass {
			t.Errorf("approved: %s: %+v", id, r)
		}
	}
	fn.mu.Lock()
	ran := strings.Join(fn.runs, ",")
	fn.mu.Unlock()
	if len(fn.runs) != 3 || strings.Count(ran, "tg.sendMessage") != 2 || strings.Count(ran, "tg.readChat") != 1 {
		t.Errorf("the native runner ran %q", ran)
	}
	if got := lenses(); !regexp.MustCompile(`^✓ 3 passed · ▶ Run all(\|✓ passed · \d+ ms · ▶ Run again){3}$`).MatchString(got) {
		t.Errorf("lenses after the approved run: %q", got)
	}
	h.waitDiags(file, func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })

	// Remembered for the module's bytes: neither the tests nor a run of
	// the tool ask again.
	setAnswer(ide.NativeCancelAction)
	if rs := runAll(); rs[nativeIDs[0]].Status != testcase.Pass {
		t.Errorf("second approved run: %+v", rs[nativeIDs[0]])
	}
	if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": dir, "tool": "tg.readChat"})); err != nil {
		t.Errorf("plugin.runTool after the tests' approval: %v", err)
	}
	if q := questions(); len(q) != 3 {
		t.Errorf("asked again: %q", q)
	}
	// "record" records brokered fetches: a native tool has none, and
	// nothing runs.
	fn.mu.Lock()
	before := len(fn.runs)
	fn.mu.Unlock()
	if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, map[string]any{"dir": dir, "tool": "tg.readChat", "record": true})); err == nil || !strings.Contains(err.Error(), `"record" records brokered fetches; a native tool has none`) {
		t.Errorf("record on a native tool: %v", err)
	}
	fn.mu.Lock()
	after := len(fn.runs)
	fn.mu.Unlock()
	if after != before {
		t.Errorf("record on a native tool ran it")
	}
}
