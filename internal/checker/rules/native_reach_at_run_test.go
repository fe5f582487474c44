package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// TestNativeReachAtRun: a connection of the last native run that requires
// does not grant is reported at the tool's key in the module, once per
// missing capability, with the fix that adds it; applied, the same runs
// report nothing. A granted protocol, an undeclared tool and no runs are
// silent. A definition without requires gets one.
func TestNativeReachAtRun(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "testdata", "example", "books")
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(p *checker.Plugin, runs map[string]checker.ToolRun) []checker.Diagnostic {
		cfg := checker.DefaultConfig()
		cfg.Runs = runs
		return codes(checker.Run(p, All(), cfg, nil), NativeReachAtRun.Code)
	}
	runs := map[string]checker.ToolRun{
		"tg.sendMessage": {Connections: []checker.RunConnection{
			{Protocol: "tcp", Host: "149.154.167.50", Port: 443, Refused: "fake-providers"},
			{Protocol: "https", Host: "api.telegram.org", Port: 443, Refused: "fake-providers"},
			{Protocol: "http", Host: "api.telegram.org", Port: 80, Refused: "fake-providers"},
		}},
		"tg.other": {Connections: []checker.RunConnection{{Protocol: "wss", Host: "x", Port: 443}}},
	}
	if ds := run(p, nil); len(ds) != 0 {
		t.Fatalf("without runs: %v", ds)
	}
	ds := run(p, runs)
	if len(ds) != 1 {
		t.Fatalf("want one diagnostic (network.http), got %v", ds)
	}
	d := ds[0]
	f, _ := p.ReadFile("native/telegram.js")
	if d.File != "native/telegram.js" || string(f.Text[d.Span.Start:d.Span.End]) != `"tg.sendMessage"` ||
		!strings.Contains(d.Message, `add "network.http"`) || len(d.Fixes) != 1 {
		t.Fatalf("diagnostic: %s %q %s fixes %d", d.File, f.Text[d.Span.Start:d.Span.End], d.Message, len(d.Fixes))
	}
	changed, err := fixes.Apply(p, d.Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	got := string(changed["native/telegram.js"])
	if !strings.Contains(got, `requires: ["secrets.read", "network.socket", "network.http"],`) {
		t.Fatalf("fixed module:\n%s", got)
	}
	fixed, err := checker.Load(&checker.Overlay{Files: map[string][]byte{p.Abs("native/telegram.js"): changed["native/telegram.js"]}}, p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if ds := run(fixed, runs); len(ds) != 0 {
		t.Errorf("after the fix: %v", ds)
	}

	// No requires at all: the fix adds the property.
	bare := strings.Replace(string(f.Text), `requires: ["secrets.read", "network.socket"],
  async execute(args, ctx) {
    const socket = await open(ctx.signal);
    socket.end`, `async execute(args, ctx) {
    const socket = await open(ctx.signal);
    socket.end`, 1)
	if bare == string(f.Text) {
		t.Fatal("the example changed: update the test")
	}
	np, err := checker.Load(&checker.Overlay{Files: map[string][]byte{p.Abs("native/telegram.js"): []byte(bare)}}, p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ds = run(np, runs)
	if len(ds) != 2 || len(ds[1].Fixes) != 1 || ds[1].Subject != "network.socket" {
		t.Fatalf("without requires: want network.http and network.socket, got %v", ds)
	}
	changed, err = fixes.Apply(np, ds[1].Fixes[0].Edits)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(changed["native/telegram.js"]), `const sendMessage = { requires: ["network.socket"],`) {
		t.Errorf("fix without requires:\n%s", changed["native/telegram.js"])
	}
}
