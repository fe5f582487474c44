package lsp

import (
	"context"
	"sync/atomic"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// TestRunThatChangesNothingSchedulesNoCheck: a run whose record gives the
// checks the facts of the tool's last run (the same fetches) schedules no
// check, and the view holds the new record (what lenses, hints and hover
// read); a run whose fetches differ schedules one.
func TestRunThatChangesNothingSchedulesNoCheck(t *testing.T) {
	dir := copyExample(t)
	var refused atomic.Bool
	var n atomic.Int32
	fr := &fakeRunner{run: func(ctx context.Context, req runner.Request) (*record.Record, error) {
		rec := hobbitRecord(req)
		rec.DurationMs = float64(n.Add(1))
		if refused.Load() {
			rec.Fetches = append(rec.Fetches, record.FetchEntry{Method: "GET", URL: "https://evil.example/x", Source: "fixture", Host: "evil.example", Refused: "not-allowed"})
		}
		return rec, nil
	}}
	h := newHarness(t, Options{Runner: fr})
	h.initialize(dir, protocol.ClientCapabilities{})
	args := map[string]any{"dir": dir, "tool": "lookupBook", "input": map[string]any{"isbn": "9780261103344"}}
	run := func() {
		t.Helper()
		if _, err := h.server.ExecuteCommand(h.ctx, runToolParams(t, args)); err != nil {
			t.Fatal(err)
		}
	}
	state := func() (gen uint64, viewed float64) {
		h.srv.mu.Lock()
		defer h.srv.mu.Unlock()
		ps := h.srv.plugins[dir]
		if r := ps.view.runs["lookupBook"]; r != nil {
			viewed = r.record.DurationMs
		}
		return ps.gen, viewed
	}
	run() // the first run of the tool: its facts are new
	h.waitChecked(dir)
	gen, _ := state()
	run() // the same fetches
	if g, viewed := state(); g != gen || viewed != 2 {
		t.Fatalf("a run that changed nothing: generation %d → %d (want no check), the view shows run %v (want 2)", gen, g, viewed)
	}
	refused.Store(true)
	run() // a refused fetch more: learnt diagnostics change
	if g, _ := state(); g == gen {
		t.Fatalf("a run with new fetches scheduled no check (generation %d)", g)
	}
	h.waitChecked(dir)
	if _, viewed := state(); viewed != 3 {
		t.Fatalf("after the check the view shows run %v, want 3", viewed)
	}
}
