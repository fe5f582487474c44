package lsp

import (
	"github.com/plugin-lsp/plugin-lsp/analysis"
)

// learntDiagnostics turns the fetches refused during the last runs into
// diagnostics (placeholder until command.go lands).
func learntDiagnostics(p *analysis.Plugin, runs map[string]*toolRun, static []analysis.Diagnostic) []analysis.Diagnostic {
	return nil
}
