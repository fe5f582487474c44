package lsp

import (
	"context"
	"maps"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// exploreAndPublish runs the exploration of the plugin view vw
// (generation gen) after its static diagnostics were published, then
// publishes the diagnostics again with what exploration saw. The user
// never waits for it: the static results are already out. A newer edit
// cancels ctx (schedule), and its check publishes static results that
// replace these; nothing of an old exploration is kept or appended.
func (s *Server) exploreAndPublish(ctx context.Context, ps *pluginState, vw *view, gen uint64) {
	if s.opts.Explore == nil || vw.plugin == nil || ctx.Err() != nil {
		return
	}
	ex := s.opts.Explore(ctx, vw.plugin)
	if ctx.Err() != nil || len(ex) == 0 {
		return
	}
	ps.checkMu.Lock()
	s.mu.Lock()
	if ps.gen != gen || ps.view == nil || ps.view.gen != gen {
		s.mu.Unlock()
		ps.checkMu.Unlock()
		return // a newer edit: its own check and exploration follow
	}
	cfg := s.analysisConfig()
	cfg.Runs = analysisRuns(maps.Clone(vw.runs))
	cfg.Explored = ex
	size, limit := s.manifestSize(ps), s.liveLimit()
	pull := s.caps.pullDiagnostics
	refresh := s.caps.diagnosticRefresh
	s.mu.Unlock()
	rules, notice := s.checkRules(size, limit)
	c := *ps.view
	c.explored = ex
	c.diags = checker.Run(c.plugin, rules, cfg, ps.cache)
	if notice != nil {
		c.diags = append(c.diags, *notice)
	}
	c.diags = append(c.diags, testDiagnostics(&c)...)
	checker.SortDiagnostics(c.diags)
	s.mu.Lock()
	stale := ps.gen != gen
	if !stale {
		ps.view = &c
	}
	s.mu.Unlock()
	ps.checkMu.Unlock()
	if stale || ctx.Err() != nil {
		return
	}
	s.publish(ctx, ps, &c, pull)
	if pull && refresh {
		_ = s.client.DiagnosticRefresh(ctx)
	}
	if s.opts.onExplored != nil {
		s.opts.onExplored(ps.dir, gen)
	}
}
