package rules

import "github.com/plugin-lsp/plugin-lsp/internal/checker"

// textRules are the checks of the text an agent reads: descriptions,
// schema strings and names (docs/agent-text.md).
func textRules() []*checker.Rule {
	return []*checker.Rule{
		TextHiddenCharacters,
		TextInstructions,
	}
}
