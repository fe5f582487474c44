package lsp

import (
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// notice is the text of a window/showMessage(Request) that quotes the
// plugin (the pin question holds the review card): its hidden characters
// shown, and no link. LSP says the message is plain text, but VS Code
// renders `[label](target)` in a notification as a link, command: targets
// included, so a tool description could put a clickable command in the
// question that approves it. `](` is written `] (`.
func notice(s string) string {
	return strings.ReplaceAll(text.VisibleBlock(s), "](", "] (")
}
