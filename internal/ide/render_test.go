package ide

import (
	"encoding/json"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

func TestRenderValue(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"type":"stat","value":"The Hobbit","label":"Title"}`, "**Title**: The Hobbit\n\n"},
		{`{"type":"stat","value":310}`, "**Value**: 310\n\n"},
		{`{"type":"table","columns":["Title","Pages"],"rows":[["The Hobbit",310],["a|b",null]]}`, "| Title | Pages |\n|---|---|\n| The Hobbit | 310 |\n| a\\|b | null |\n\n"},
		{`{"type":"list","items":["one",{"title":"two"},3]}`, "- one\n- two\n- 3\n\n"},
		{`{"type":"markdown","text":"Saved **x**"}`, "Saved **x**\n\n"},
		{`{"type":"chart","points":[1,2]}`, "```json\n{\n  \"type\": \"chart\",\n  \"points\": [\n    1,\n    2\n  ]\n}\n```\n\n"},
		{`"just a string"`, "```json\n\"just a string\"\n```\n\n"},
		{``, "```json\nnull\n```\n\n"},
	} {
		if got := Doc(renderValue(json.RawMessage(c.in))).Markdown(); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestSummary(t *testing.T) {
	ok := &record.Record{OK: true, Result: json.RawMessage(`{"type":"table","columns":["a","b","c"],"rows":[[1,2,3],[4,5,6]]}`), DurationMs: 7.4,
		Fetches: []record.FetchEntry{{URL: "https://x"}, {URL: "https://y", Refused: "not-allowed"}}}
	if got := Summary(&Run{Record: ok}); got != "✓ table 2×3 · 7 ms · 2 fetches (1 refused)" {
		t.Errorf("summary %q", got)
	}
	failed := &record.Record{OK: false, Error: &record.RunError{Name: "Error", Message: "Open Library answered 404 for ISBN 1"}, DurationMs: 3}
	if got := Summary(&Run{Record: failed}); got != "✗ Error: Open Library answered 404 for ISBN 1 · 3 ms · 0 fetches" {
		t.Errorf("summary %q", got)
	}
	one := &record.Record{OK: true, Result: json.RawMessage(`{"type":"markdown","text":"line one\nline two"}`), DurationMs: 12, Fetches: []record.FetchEntry{{}}}
	if got := Summary(&Run{Record: one}); got != "✓ line one · 12 ms · 1 fetch" {
		t.Errorf("summary %q", got)
	}
	// a native tool's traffic is its connections (it has no brokered fetch)
	native := &record.Record{OK: true, Lane: "native", Result: json.RawMessage(`{"type":"markdown","text":"sent"}`), DurationMs: 40,
		Connections: []record.Connection{{Protocol: "tcp", Host: "149.154.167.50", Port: 443, Refused: "fake-providers"}}}
	if got := Summary(&Run{Record: native}); got != "✓ sent · 40 ms · 1 connection (1 refused)" {
		t.Errorf("native summary %q", got)
	}
	native.Connections, native.ConnectionsOmitted = nil, 0
	if got := Summary(&Run{Record: native}); got != "✓ sent · 40 ms · 0 connections" {
		t.Errorf("native summary %q", got)
	}
}
