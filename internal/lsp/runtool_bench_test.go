package lsp

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
)

// BenchmarkRunToolOverLSP: plugin.runTool lookupBook the way an editor
// asks for it (a workspace/executeCommand over a JSON-RPC stream: encode,
// decode, the server's checks, the run, the record, the answer), against
// runner.Run of the same request in the same process: the difference is
// what the protocol path adds. Back to back; p50 reported.
func BenchmarkRunToolOverLSP(b *testing.B) {
	r, err := runner.New(runner.Config{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), Env: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	dir := copyExample(b)
	input := json.RawMessage(`{"isbn":"978-0261103344"}`)
	b.Run("lsp", func(b *testing.B) {
		// The binary's debounce: the check a run schedules waits for the
		// runs to pause, as in an editor.
		h := newHarness(b, Options{Runner: r, Debounce: DefaultDebounce})
		h.initialize(dir, protocol.ClientCapabilities{})
		raw, _ := json.Marshal(map[string]any{"dir": dir, "tool": "lookupBook", "input": input})
		call := func() {
			out, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandRunTool, Arguments: []protocol.LSPAny{raw}})
			if err != nil || !strings.Contains(string(out), `"ok":true`) {
				b.Fatalf("%v %.300s", err, out)
			}
		}
		benchP50(b, call)
	})
	b.Run("runner", func(b *testing.B) {
		h := newHarness(b, Options{Runner: r})
		h.initialize(dir, protocol.ClientCapabilities{})
		ps, err := h.srv.pluginOf(runToolArgs{Dir: dir, Tool: "lookupBook"})
		if err != nil {
			b.Fatal(err)
		}
		p := h.srv.check(ps).plugin
		call := func() {
			rec, err := r.Run(h.ctx, runner.Request{Plugin: p, Tool: "lookupBook", Input: input})
			if err != nil || !rec.OK {
				b.Fatal(err, rec.Error)
			}
		}
		benchP50(b, call)
	})
}

func benchP50(b *testing.B, call func()) {
	for i := 0; i < 20; i++ {
		call()
	}
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		call()
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
}
