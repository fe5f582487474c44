package explore

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
)

// TestToolRunEndless: a tool that loops for one generated input (a number
// at its bound) or one stubbed answer (a 500) is reported at its name in
// plugin.json with that input and answer, and the input in the message,
// run as `plugin-lsp run --input` runs it, does not finish either. A tool
// that finishes for every input is not reported.
func TestToolRunEndless(t *testing.T) {
	x := explorer(t)
	p := writePlugin(t, map[string]string{
		"plugin.json": `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [
    {"name": "steps", "description": "Collatz steps", "page": "code/steps.ts",
     "inputJsonSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 27}}, "required": ["n"]}},
    {"name": "status", "description": "waits out a failing status", "page": "code/status.ts", "inputJsonSchema": {"type": "object"}},
    {"name": "fine", "description": "always ends", "page": "code/fine.ts",
     "inputJsonSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 27}}}}],
  "capabilities": {"host": ["http.fetch"], "fetch": ["api.example.com"]}}`,
		"code/steps.ts": `export default async function steps(input: { n: number }) {
  let n = input.n, k = 0;
  while (n !== 1) { n = n % 2 ? 3 * n + 1 : n / 2; k++; }
  return { type: "stat", label: "steps", value: k };
}`,
		"code/status.ts": `export default async function status() {
  const r = await http.fetch("https://api.example.com/health");
  let spins = 0;
  while (r.status >= 500) spins++; // "wait" for the server: r never changes
  return { type: "stat", label: "status", value: r.status + spins };
}`,
		"code/fine.ts": `export default async function fine(input: { n?: number }) {
  let k = 0;
  for (let i = 0; i < (input.n ?? 3); i++) k += i;
  return { type: "stat", label: "sum", value: k };
}`,
	})
	cfg := checker.DefaultConfig()
	cfg.Explored = x.Plugin(context.Background(), p)
	got := map[string]checker.Diagnostic{}
	for _, d := range checker.Run(p, rules.All(), cfg, nil) {
		if d.Code == rules.ToolRunEndless.Code {
			got[string(p.ManifestFile.Text[d.Span.Start:d.Span.End])] = d
		}
	}
	if len(got) != 2 {
		t.Fatalf("tool-run-endless on %d tools, want steps and status: %v", len(got), got)
	}
	steps, ok := got[`"steps"`]
	if !ok {
		t.Fatalf("not at the name of steps: %v", got)
	}
	if !strings.Contains(steps.Message, `exploring tool steps: the run with input {"n":0} did not finish`) {
		t.Errorf("steps: %s", steps.Message)
	}
	status, ok := got[`"status"`]
	if !ok || !strings.Contains(status.Message, "every fetch answered 500 {}") {
		t.Errorf("status: %+v", status)
	}
	// Reproduce steps from its message, as plugin-lsp run would.
	in := regexp.MustCompile(`--input '([^']*)'`).FindStringSubmatch(steps.Message)
	if in == nil || !json.Valid([]byte(in[1])) {
		t.Fatalf("no input to reproduce in %q", steps.Message)
	}
	r, err := runner.New(runner.Config{CacheDir: testCache(), Spare: -1, Env: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Run(context.Background(), runner.Request{Plugin: p, Tool: "steps", Input: json.RawMessage(in[1]), Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rec.OK || rec.Error == nil {
		t.Fatalf("the run with %s finished: %+v", in[1], rec)
	}
	t.Logf("plugin-lsp run --input '%s': %s: %s", in[1], rec.Error.Name, rec.Error.Message)
	if rec, err := r.Run(context.Background(), runner.Request{Plugin: p, Tool: "steps", Input: json.RawMessage(`{"n":6}`), Timeout: 10 * time.Second}); err != nil || !rec.OK {
		t.Errorf("steps with n=6 (8 steps) did not finish: %v %+v", err, rec)
	}
}
