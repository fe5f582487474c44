package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	lock "github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// CommandPin writes the capability snapshot (plugin.lock.json).
const CommandPin = ide.CommandPin

// pinArgs is the argument of plugin.pin: which plugin, and whether the
// author already saw the review card (confirm). Without confirm the card
// is shown first (window/showMessageRequest, "Pin" or "Cancel").
//
// Approval is the other way to confirm, for a client that shows the card
// itself (the VS Code extension's review view): the one-time token that
// plugin.reviewCard with "approve": true returned with the card. It pins
// only the files that card was built from (the plugin changed since:
// nothing is written), and only once.
type pinArgs struct {
	Dir      string `json:"dir,omitempty"`
	URI      string `json:"uri,omitempty"`
	Confirm  bool   `json:"confirm,omitempty"`
	Approval string `json:"approval,omitempty"`
}

// reviewCardArgs is the argument of plugin.reviewCard. Approve asks for
// the card of the plugin on disk (what plugin.pin would pin, not the
// editor's unsaved text) and a one-time approval token for plugin.pin.
type reviewCardArgs struct {
	Dir     string `json:"dir,omitempty"`
	URI     string `json:"uri,omitempty"`
	Approve bool   `json:"approve,omitempty"`
}

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
	p, err := checker.Load(nil, ps.dir)
	if err != nil {
		return nil, rpcError(ide.DiskUnloadable(CommandPin, err))
	}
	res := ide.PinResult{Changes: []string{}}
	if s.opts.Review != nil {
		if res.Card, err = s.opts.Review(p); err != nil {
			return nil, rpcError(ide.CardFailed(err))
		}
	}
	if args.Approval != "" {
		s.mu.Lock()
		reviewed, ok := s.approvals.Take(ps.dir, args.Approval)
		s.mu.Unlock()
		if !ok {
			return nil, rpcError(ide.PinApprovalRefused(ps.dir))
		}
		return s.writePin(ps, p, res, reviewed)
	}
	if !args.Confirm {
		q := ide.PinConfirm(p, res.Card)
		q.Message = notice(q.Message)
		if !s.ask(ctx, q) {
			return json.Marshal(res) // not confirmed: nothing written
		}
	}
	return s.writePin(ps, p, res, "")
}

// writePin writes the snapshot of p (reviewed: the approved files' hash,
// "" for any) and re-checks the plugin.
func (s *Server) writePin(ps *pluginState, p *checker.Plugin, res ide.PinResult, reviewed string) (protocol.LSPAny, error) {
	out, err := lock.PinReviewed(p, "plugin-lsp "+s.version(), reviewed)
	res, f := ide.PinWritten(res, ps.dir, out, err)
	if f != nil {
		return nil, rpcError(f)
	}
	s.mu.Lock()
	s.touch(res.File, true) // re-check: the drift diagnostics clear
	s.mu.Unlock()
	return json.Marshal(res)
}

// reviewCard answers plugin.reviewCard: the card model (as review --format
// json writes it), with its Markdown rendering (the whole card, and each
// section by name) and, with approve, an approval token for plugin.pin.
func (s *Server) reviewCard(raw []protocol.LSPAny) (protocol.LSPAny, error) {
	var args reviewCardArgs
	if len(raw) == 1 {
		_ = json.Unmarshal([]byte(raw[0]), &args)
	}
	ps, err := s.pluginOf(runToolArgs{Dir: args.Dir, URI: args.URI})
	if err != nil {
		return nil, err
	}
	var p *checker.Plugin
	if args.Approve {
		// What plugin.pin writes: the files on disk.
		if p, err = checker.Load(nil, ps.dir); err != nil {
			return nil, rpcError(ide.DiskUnloadable(CommandReviewCard, err))
		}
	} else if p = s.check(ps).plugin; p == nil {
		return nil, rpcError(ide.NoPlugin(ps.dir))
	}
	card, err := s.opts.Review(p)
	if err != nil {
		return nil, rpcError(ide.CardFailed(err))
	}
	token := ""
	if args.Approve {
		_, reviewed, err := lock.Files(p)
		if err != nil {
			return nil, rpcError(ide.CardUnhashable(ps.dir, err))
		}
		s.mu.Lock()
		if s.approvals == nil {
			s.approvals = ide.PinApprovals{}
		}
		token = s.approvals.Issue(ps.dir, reviewed)
		s.mu.Unlock()
	}
	ans, err := ide.CardAnswer(card, token)
	if err != nil {
		return nil, rpcError(ide.CardFailed(err))
	}
	return protocol.LSPAny(ans), nil
}
