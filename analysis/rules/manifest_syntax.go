package rules

import "github.com/plugin-lsp/plugin-lsp/analysis"

// ManifestSyntax reports plugin.json (and fixtures.json) text that is not
// valid JSON. The rest of the checks still run on what parsed before the
// error.
var ManifestSyntax = &analysis.Rule{
	Code:     "manifest-syntax",
	Severity: analysis.Error,
	Title:    "plugin.json is not valid JSON",
	Doc: "The manifest must be one JSON object (no comments, no trailing commas). " +
		"Everything before the error is still checked, so other diagnostics may appear too; " +
		"fix this one first.",
	Lang:   "json",
	Before: "{ \"name\": \"books\", }",
	After:  "{ \"name\": \"books\" }",
	Run: func(pass *analysis.Pass) {
		p := pass.Plugin
		if e := p.SyntaxError; e != nil {
			pass.Reportf(analysis.ManifestName, analysis.Span{Start: e.Offset, End: e.Offset}, "%s", e.Message)
		} else if root := p.Manifest.Root; root != nil && root.Kind.String() != "object" {
			pass.Reportf(analysis.ManifestName, analysis.SpanOf(root), "plugin.json must hold a JSON object, not a %s", root.Kind)
		}
		if e := p.FixturesError; e != nil {
			pass.Reportf(analysis.FixturesName, analysis.Span{Start: e.Offset, End: e.Offset}, "%s", e.Message)
		}
	},
}
