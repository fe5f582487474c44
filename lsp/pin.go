package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/review"
	lock "github.com/plugin-lsp/plugin-lsp/analysis/snapshot"
	"github.com/plugin-lsp/plugin-lsp/analysis/text"
)

// CommandPin writes the capability snapshot (plugin.lock.json).
const CommandPin = "plugin.pin"

// pinArgs is the argument of plugin.pin: which plugin, and whether the
// author already saw the review card (confirm). Without confirm the card
// is shown first (window/showMessageRequest, "Pin" or "Cancel").
type pinArgs struct {
	Dir     string `json:"dir,omitempty"`
	URI     string `json:"uri,omitempty"`
	Confirm bool   `json:"confirm,omitempty"`
}

// pinResult is what plugin.pin returns.
type pinResult struct {
	Pinned bool `json:"pinned"`
	// File is the snapshot written; Changes are the reach changes since
	// the previous snapshot ("+ api.x.org (fetch, tool searchBooks)").
	File    string   `json:"file,omitempty"`
	Changes []string `json:"changes"`
	// Card is the review card that was shown.
	Card any `json:"card,omitempty"`
}

// pinLabel is the title of the quick fix and of the confirmation.
const pinLabel = "Re-pin the capability snapshot"

// snapshotCodes are the drift diagnostics plugin.pin clears.
var snapshotCodes = map[string]bool{"snapshot-widened": true, "snapshot-narrowed": true, "snapshot-stale": true}

func (s *Server) pin(ctx context.Context, raw []protocol.LSPAny) (protocol.LSPAny, error) {
	var args pinArgs
	if len(raw) == 1 {
		if err := json.Unmarshal([]byte(raw[0]), &args); err != nil {
			return nil, invalidParams("%s: %v", CommandPin, err)
		}
	}
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	// What gets pinned is the plugin on disk (what would be installed),
	// not unsaved buffers.
	p, err := analysis.Load(nil, ps.dir)
	if err != nil {
		return nil, invalidParams("%s: %v", CommandPin, err)
	}
	res := pinResult{Changes: []string{}}
	if s.opts.Review != nil {
		if res.Card, err = s.opts.Review(p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "review card: %v", err)
		}
	}
	if !args.Confirm {
		pick, err := s.client.ShowMessageRequest(ctx, &protocol.ShowMessageRequestParams{
			Type:    protocol.MessageTypeWarning,
			Message: notice(pinQuestion(p, res.Card)),
			Actions: []protocol.MessageActionItem{{Title: "Pin"}, {Title: "Cancel"}},
		})
		if err != nil || pick == nil || pick.Title != "Pin" {
			return json.Marshal(res) // not confirmed: nothing written
		}
	}
	out, err := lock.Pin(p, "plugin-lsp "+s.version())
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: %v", CommandPin, err)
	}
	res.Pinned, res.File = true, filepath.Join(ps.dir, lock.FileName)
	for _, c := range out.Changes {
		res.Changes = append(res.Changes, c.Line())
	}
	s.mu.Lock()
	s.touch(res.File, true) // re-check: the drift diagnostics clear
	s.mu.Unlock()
	return json.Marshal(res)
}

// pinQuestion is the confirmation: the review card, led by what changed
// since the pinned snapshot.
func pinQuestion(p *analysis.Plugin, card any) string {
	var b strings.Builder
	name, _ := analysis.Str(p.Manifest.Name)
	fmt.Fprintf(&b, "%s of %s? Review what you approve:\n\n", pinLabel, text.Visible(name))
	if c, ok := card.(*review.Card); ok {
		b.WriteString(c.Text())
	} else if card != nil {
		j, _ := json.MarshalIndent(card, "", "  ")
		b.Write(j)
	}
	return b.String()
}

// pinAction is the quick fix of a drift diagnostic: plugin.pin, which
// shows the review card before it writes.
func pinAction(manifestURI uri.URI, d protocol.Diagnostic) *protocol.CodeAction {
	kind := protocol.CodeActionKindQuickFix
	arg, _ := json.Marshal(pinArgs{URI: string(manifestURI)})
	return &protocol.CodeAction{
		Title: pinLabel, Kind: &kind, Diagnostics: []protocol.Diagnostic{d},
		Command: protocol.Command{Title: pinLabel, Command: CommandPin, Arguments: []protocol.LSPAny{protocol.LSPAny(arg)}},
	}
}
