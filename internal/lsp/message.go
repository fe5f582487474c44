package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// ask puts q to the user (window/showMessageRequest, a warning) and
// reports whether the answer confirms; a dismissed request, an error or a
// client that cannot ask confirms nothing.
func (s *Server) ask(ctx context.Context, q ide.Question) bool {
	actions := make([]protocol.MessageActionItem, len(q.Actions))
	for i, a := range q.Actions {
		actions[i] = protocol.MessageActionItem{Title: a}
	}
	item, err := s.client.ShowMessageRequest(ctx, &protocol.ShowMessageRequestParams{Type: protocol.MessageTypeWarning, Message: q.Message, Actions: actions})
	return err == nil && item != nil && q.Confirmed(item.Title)
}

// notice is the text of a window/showMessage(Request) that quotes the
// plugin (the pin question holds the review card): its hidden characters
// shown, and no link. LSP says the message is plain text, but VS Code
// renders `[label](target)` in a notification as a link, command: targets
// included, so a tool description could put a clickable command in the
// question that approves it. `](` is written `] (`.
func notice(s string) string {
	return strings.ReplaceAll(text.VisibleBlock(s), "](", "] (")
}
