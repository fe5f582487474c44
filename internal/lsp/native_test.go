package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/native"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
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
