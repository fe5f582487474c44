package lsp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	lock "github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
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

// approval is an issued, unused approval token: the newest card shown for
// approval of one plugin directory, and the snapshot hash of the files it
// was built from.
type approval struct {
	token, reviewed string
}

// maxApprovals bounds the tokens kept (one per plugin directory).
const maxApprovals = 64

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
		return nil, invalidParams("%s: %v", CommandPin, err)
	}
	res := ide.PinResult{Changes: []string{}}
	if s.opts.Review != nil {
		if res.Card, err = s.opts.Review(p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "review card: %v", err)
		}
	}
	if args.Approval != "" {
		reviewed, ok := s.takeApproval(ps.dir, args.Approval)
		if !ok {
			return nil, invalidParams("%s: the approval is not that of the last review card shown for %s (used already, replaced by a newer card, or never issued): nothing was pinned; open the review again", CommandPin, text.Visible(ps.dir))
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
	if errors.Is(err, lock.ErrChangedSinceReview) {
		return nil, invalidParams("%s: %v", CommandPin, err)
	}
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
			return nil, invalidParams("%s: %v", CommandReviewCard, err)
		}
	} else if p = s.check(ps).plugin; p == nil {
		return nil, invalidParams("%s has no plugin.json", ps.dir)
	}
	card, err := s.opts.Review(p)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "review card: %v", err)
	}
	token := ""
	if args.Approve {
		_, reviewed, err := lock.Files(p)
		if err != nil {
			return nil, invalidParams("%s: %s: cannot hash the source tree: %v", CommandReviewCard, text.Visible(ps.dir), err)
		}
		token = s.issueApproval(ps.dir, reviewed)
	}
	return cardResult(card, token)
}

// cardResult is the JSON of a card with its Markdown and sections (a
// *review.Card; another value, from a test's Review, as it marshals).
func cardResult(card any, token string) (protocol.LSPAny, error) {
	raw, err := json.Marshal(card)
	c, ok := card.(*review.Card)
	if err != nil || !ok {
		return raw, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "review card: %v", err)
	}
	m["markdown"], _ = json.Marshal(c.Markdown())
	m["sections"], _ = json.Marshal(c.Sections())
	if token != "" {
		m["approval"], _ = json.Marshal(token)
	}
	return json.Marshal(m)
}

// issueApproval makes the approval token of the card just built for dir,
// replacing any earlier one of dir: only the newest card can be approved.
func (s *Server) issueApproval(dir, reviewed string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.approvals == nil {
		s.approvals = map[string]approval{}
	}
	if _, ok := s.approvals[dir]; !ok && len(s.approvals) >= maxApprovals {
		for k := range s.approvals {
			delete(s.approvals, k) // the oldest is not known; any one goes
			break
		}
	}
	s.approvals[dir] = approval{token: token, reviewed: reviewed}
	return token
}

// takeApproval uses up dir's approval token: the reviewed hash, and
// whether token was it. A wrong token uses it up too.
func (s *Server) takeApproval(dir, token string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.approvals[dir]
	delete(s.approvals, dir)
	if !ok || subtle.ConstantTimeCompare([]byte(a.token), []byte(token)) != 1 {
		return "", false
	}
	return a.reviewed, true
}
