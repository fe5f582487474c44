// Package ide answers the editor's questions about a checked plugin:
// hover text, completion candidates, definition targets, code lenses (the
// tools' and the tests'), code actions (fixes, add-all, fix-all, create
// from a template, accept a snapshot case, generate types), the commands
// they invoke, the tool tests' answers, what a run shows, and the
// questions asked before pinning and before a native run. One file per
// feature (hover.go, completion.go, definition.go, lens.go,
// code_action.go, create.go, fixall.go, inlay_hint.go, stale.go, pin.go,
// command.go, tests.go, run.go, approval.go, native.go). It is the
// layer between the analysis and the protocol (rust-analyzer's ide crate,
// gopls's golang package): it takes a View (one check of a plugin), a file
// and a byte offset and returns plain Go values (checker spans and edits,
// structured docs), and knows nothing of LSP. lsp/ converts its answers to
// protocol types.
//
// A View's plugin (checker.Plugin) is immutable: it reads each file once,
// under its own lock, so concurrent requests share one View without a lock
// of their own.
package ide

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// View is what the features read: one check of a plugin, i.e. the loaded plugin, its diagnostics
// and the last run of each function tool (by tool name).
type View struct {
	Plugin *checker.Plugin
	Diags  []checker.Diagnostic
	Runs   map[string]*Run
}

// Run is the outcome of the last run of a tool.
type Run struct {
	Record *record.Record // nil when the run could not start
	Err    string         // why it could not start (no sandbox, bad input)
	Input  []byte         // the input it ran with
	Basis  Basis          // what it ran against (BasisOf when it started)
}

// Anchor is where a tool is shown in a file: its name in plugin.json, the
// default export of its page.
type Anchor struct {
	Tool string
	Span checker.Span
}

// Anchors lists the tools shown in file rel, in manifest order.
func Anchors(p *checker.Plugin, rel string) []Anchor {
	if p == nil {
		return nil
	}
	var out []Anchor
	for _, t := range p.Manifest.Tools {
		name, ok := checker.Str(t.Name)
		if !ok || name == "" {
			continue
		}
		if rel == checker.ManifestName {
			out = append(out, Anchor{Tool: name, Span: checker.SpanOf(t.Name)})
			continue
		}
		page, ok := checker.Str(t.Page)
		if !ok {
			continue
		}
		if r, ok := p.ResolvePage(page); ok && r == rel {
			if f, err := p.ReadFile(rel); err == nil {
				out = append(out, Anchor{Tool: name, Span: checker.DefaultExportSpan(f.Text)})
			}
		}
	}
	return out
}

// AnalysisRuns are the fetches of the last runs as the rules read them
// (checker.Config.Runs, for fetch-refused-at-run).
func AnalysisRuns(runs map[string]*Run) map[string]checker.ToolRun {
	out := make(map[string]checker.ToolRun, len(runs))
	for name, r := range runs {
		if r == nil || r.Record == nil {
			continue
		}
		fs := make([]checker.RunFetch, 0, len(r.Record.Fetches))
		for _, f := range r.Record.Fetches {
			fs = append(fs, checker.RunFetch{URL: f.URL, Host: f.Host, Refused: f.Refused})
		}
		var cs []checker.RunConnection
		for _, c := range r.Record.Connections {
			cs = append(cs, checker.RunConnection{Protocol: c.Protocol, Host: c.Host, Port: c.Port, Refused: c.Refused})
		}
		out[name] = checker.ToolRun{Fetches: fs, Connections: cs}
	}
	return out
}
