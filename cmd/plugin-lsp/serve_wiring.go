package main

import (
	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/runner"
)

// newToolRunner returns the sandbox for plugin.runTool; nil until the
// runner (issue 4) provides runner.New.
func newToolRunner() runner.ToolRunner { return nil }

// reviewCard builds the plugin.reviewCard model; nil until analysis/review
// lands.
var reviewCard func(p *analysis.Plugin) (any, error)
