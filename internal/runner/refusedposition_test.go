package runner

import (
	"testing"
)

// TestRefusedFetchPlacedAtTheCall: a refused fetch whose init holds a call
// (AbortSignal.timeout) is placed at the http.fetch call, not at the call
// inside its arguments.
func TestRefusedFetchPlacedAtTheCall(t *testing.T) {
	p := writePlugin(t, map[string]string{
		"plugin.json": `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [{"name": "t", "description": "d", "page": "code/t.ts"}],
  "capabilities": {"host": ["http.fetch"], "fetch": ["api.example.com"]}}`,
		"code/t.ts": "export default async function t() {\n  const r = await http.fetch(\"https://evil.example.net/x\", {\n    method: \"GET\",\n    signal: AbortSignal.timeout(5000),\n  });\n  return r.status;\n}\n",
	})
	rec := runTool(t, p, "t", "")
	if rec.OK || rec.Error == nil {
		t.Fatalf("want a refusal, got %+v", rec)
	}
	if rec.Error.File != "code/t.ts" || rec.Error.Line != 2 || rec.Error.Column != 19 {
		t.Errorf("placed at %s:%d:%d, want code/t.ts:2:19 (the http.fetch callee); %s", rec.Error.File, rec.Error.Line, rec.Error.Column, rec.Error.Stack)
	}
}
