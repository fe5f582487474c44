package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// schedule bumps the plugin's generation and (re)arms its debounced check;
// the previous pending or running check is cancelled. Callers hold s.mu.
func (s *Server) schedule(ps *pluginState) { s.scheduleIn(ps, false) }

// scheduleIn is schedule; now skips the debounce (a document was opened:
// nobody is typing). Callers hold s.mu.
func (s *Server) scheduleIn(ps *pluginState, now bool) {
	ps.gen++
	ps.runsOnlyFrom = 0
	ps.editsPending = false // this check reads every edit made so far
	if ps.timer != nil {
		ps.timer.Stop()
	}
	if ps.cancel != nil {
		ps.cancel()
	}
	if s.ctx == nil {
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	ps.cancel = cancel
	gen := ps.gen
	delay := s.debounce()
	if now || ps.view == nil && ps.timer == nil {
		delay = 0 // the first check of a plugin, or a file opened
	}
	ps.timer = time.AfterFunc(delay, func() {
		s.safeGo("diagnostics", func() { s.checkAndPublish(ctx, ps, gen) })
	})
}

// debounce is the delay before a check. Callers hold s.mu.
func (s *Server) debounce() time.Duration {
	if s.config.DebounceMs != nil {
		if *s.config.DebounceMs <= 0 {
			return 0
		}
		return time.Duration(*s.config.DebounceMs) * time.Millisecond
	}
	if s.opts.Debounce < 0 {
		return 0
	}
	return s.opts.Debounce
}

// checkAndPublish runs the check of generation gen and pushes (or, for
// pull clients, announces) the result, unless a newer edit came first.
func (s *Server) checkAndPublish(ctx context.Context, ps *pluginState, gen uint64) {
	if ctx.Err() != nil {
		return
	}
	vw := s.check(ps)
	if ctx.Err() != nil || vw.gen != gen {
		return // a newer edit will publish
	}
	s.mu.Lock()
	pull := s.caps.pullDiagnostics
	refresh := s.caps.diagnosticRefresh
	vw = s.adopt(ps, vw)
	s.mu.Unlock()
	s.publish(ctx, ps, vw, pull)
	if pull && refresh {
		_ = s.client.DiagnosticRefresh(ctx)
	}
	s.refreshWhenStale(ctx, ps, vw)
	if s.onChecked != nil {
		s.onChecked(ps.dir, gen)
	}
	if vw.explored != nil { // kept from the last exploration (keptExploration)
		if s.opts.onExplored != nil {
			s.opts.onExplored(ps.dir, gen)
		}
		return
	}
	s.exploreAndPublish(ctx, ps, vw, gen)
}

// check returns an up-to-date view of the plugin, running the rules
// when the files changed since the last one. Checks of one plugin are
// serialized; analysis results per file are memoized in ps.cache, which
// is swept after each check: a version of a file two edits old leaves the
// cache, and the buffer of a closed one with the check that follows the
// close.
func (s *Server) check(ps *pluginState) *view {
	ps.checkMu.Lock()
	defer ps.checkMu.Unlock()
	s.mu.Lock()
	if ps.view != nil && ps.view.gen == ps.gen {
		vw := ps.view
		s.mu.Unlock()
		return vw
	}
	gen := ps.gen
	prev := ps.view
	files := make(map[string][]byte, len(s.docs))
	docs := make(map[string]*document, len(s.docs))
	for p, d := range s.docs {
		files[p] = d.text
		c := *d
		docs[p] = &c
	}
	cfg := s.analysisConfig()
	runs := maps.Clone(ps.runs)
	cfg.Runs = analysisRuns(runs)
	tests := maps.Clone(ps.tests)
	caps := s.caps
	size, limit := s.manifestSize(ps), s.liveLimit()
	s.fitMemoryLimit(size)
	hook := s.checking
	s.mu.Unlock()
	if hook != nil {
		hook(ps.dir)
	}

	vw := &view{gen: gen, docs: docs, runs: runs, tests: tests, enc: caps.enc, caps: caps}
	if p, err := checker.Load(newOverlayFS(files), ps.dir); err == nil {
		vw.plugin = p
		rules, notice := s.checkRules(size, limit)
		vw.explored = keptExploration(prev, p)
		cfg.Explored = vw.explored
		vw.diags = checker.Run(p, rules, cfg, ps.cache)
		if vw.explored != nil && !p.ReadsWithin(prev.plugin) {
			// this check read a file the explored one did not (an import
			// now resolves elsewhere): what exploration saw may not hold
			vw.explored, cfg.Explored = nil, nil
			vw.diags = checker.Run(p, rules, cfg, ps.cache)
		}
		if notice != nil {
			vw.diags = append(vw.diags, *notice)
		}
		vw.diags = append(vw.diags, testDiagnostics(vw)...)
		checker.SortDiagnostics(vw.diags)
	}
	// Keep the previous version of each file too (an undo, or two texts
	// toggled, is then a cache hit), except after a file was closed: its
	// buffer's analyses go with this check.
	s.mu.Lock()
	keep := 2
	if ps.closedSince {
		keep, ps.closedSince = 1, false
	}
	s.mu.Unlock()
	ps.cache.Sweep(keep)
	s.trimWhenIdle()
	s.mu.Lock()
	if ps.view == nil || ps.view.gen <= gen {
		ps.view = vw
	}
	s.mu.Unlock()
	return vw
}

// keptExploration is what exploration found for the view prev, when p
// (a new snapshot of the same plugin) reads the same inputs: a file
// closed with its text on disk, a file written with the same bytes, a
// run recorded. Nothing is explored for such a check; its diagnostics
// are whole at once, and a code action asked before a new exploration
// would end has the explored quick fixes. An edit changes an input:
// its check has the static results until its own exploration.
func keptExploration(prev *view, p *checker.Plugin) map[string]*checker.Exploration {
	if prev == nil || prev.explored == nil || prev.plugin == nil || !prev.plugin.InputsAgree(p) {
		return nil
	}
	return prev.explored
}

// scheduleAfterRun is schedule for a run's record: the files did not
// change, so the next run need not wait for a check (runView). Callers
// hold s.mu.
func (s *Server) scheduleAfterRun(ps *pluginState) {
	from := ps.runsOnlyFrom
	if from == 0 {
		from = ps.gen
	}
	s.scheduleIn(ps, false)
	ps.runsOnlyFrom = from
}

// keepViewAfterRun: a run whose record gives the checks the same facts as
// the tool's last run (analysisRuns: its fetches and connections) changes
// no diagnostic, so when the current view was checked with that last run,
// it takes the new run as it is (lenses, hints and hover read the view's
// runs) and no check is scheduled. Back to back, a check per run competed
// with the next run for the CPU. Callers hold s.mu.
func (s *Server) keepViewAfterRun(ps *pluginState, tool string, prev *toolRun) bool {
	vw := ps.view
	if prev == nil || vw == nil || vw.plugin == nil || vw.gen != ps.gen || vw.runs[tool] != prev {
		return false
	}
	facts := analysisRuns(map[string]*toolRun{"a": prev, "b": ps.runs[tool]})
	if !reflect.DeepEqual(facts["a"], facts["b"]) {
		return false
	}
	nv := *vw
	nv.runs = maps.Clone(ps.runs)
	ps.view = &nv
	return true
}

// runView returns the view a run reads its plugin from: the last check's
// when only runs happened since (a run's record changes learnt
// diagnostics, never the plugin's files), else a check's. A run does not
// wait for the check the previous run scheduled.
func (s *Server) runView(ps *pluginState) *view {
	s.mu.Lock()
	vw := ps.view
	ok := vw != nil && vw.plugin != nil && (vw.gen == ps.gen || ps.runsOnlyFrom != 0 && vw.gen >= ps.runsOnlyFrom)
	s.mu.Unlock()
	if ok {
		return vw
	}
	return s.check(ps)
}

// current returns the view a request (hover, completion, …) reads:
// an up-to-date one, except while a plugin whose manifest is over the
// live limit is being checked: then the last check's, so that the editor
// does not wait seconds for an answer (such a plugin's edits are checked
// on save anyway). The first check of a plugin is waited for.
func (s *Server) current(ps *pluginState) *view {
	s.mu.Lock()
	last := ps.view
	big := last != nil && s.manifestSize(ps) > s.liveLimit()
	s.mu.Unlock()
	if big {
		if !ps.checkMu.TryLock() {
			return last // a check is running
		}
		ps.checkMu.Unlock()
	}
	return s.check(ps)
}

// rules returns the rules the server runs.
func (s *Server) rules() []*checker.Rule {
	if s.opts.Rules != nil {
		return s.opts.Rules
	}
	return rules.All()
}

// analysisConfig builds the analysis config from the settings. Callers
// hold s.mu.
func (s *Server) analysisConfig() *checker.Config {
	cfg := checker.DefaultConfig()
	if len(s.config.Builtins) > 0 {
		cfg.Builtins = cfg.Builtins.Extend(s.config.Builtins...)
	}
	return cfg
}

// fileDiagnostics converts the view's diagnostics of one plugin file.
// The result is never nil (clients want [], not null).
func (s *Server) fileDiagnostics(vw *view, rel string) []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	if vw.plugin == nil {
		return out
	}
	for i := range vw.diags {
		if vw.diags[i].File == rel {
			out = append(out, s.toDiagnostic(vw, &vw.diags[i]))
		}
	}
	return out
}

// toDiagnostic converts one analysis diagnostic.
func (s *Server) toDiagnostic(vw *view, d *checker.Diagnostic) protocol.Diagnostic {
	f := vw.file(d.File)
	pd := protocol.Diagnostic{
		Range:    vw.enc.toRange(f, d.Span),
		Severity: severity(d.Severity),
		Source:   protocol.NewOptional("plugin-lsp"),
		Message:  protocol.String(text.VisibleBlock(d.Message)), // messages quote the plugin: its controls shown
	}
	dc := vw.caps.diag
	if d.Code != "" {
		pd.Code = protocol.String(d.Code)
		if s.opts.DocsURL != "" && dc.codeDescription {
			if h, err := uri.Parse(s.opts.DocsURL + "#" + d.Code); err == nil {
				pd.CodeDescription = protocol.CodeDescription{Href: h}
			}
		}
	}
	var tags []protocol.DiagnosticTag
	for _, t := range d.Tags {
		switch {
		case t == checker.Unnecessary && dc.unnecessary:
			tags = append(tags, protocol.DiagnosticTagUnnecessary)
		case t == checker.Deprecated && dc.deprecated:
			tags = append(tags, protocol.DiagnosticTagDeprecated)
		}
	}
	if len(tags) > 0 {
		pd.Tags = protocol.NewDiagnosticTags(tags...)
	}
	var inline []string
	for _, r := range d.Related {
		rf := vw.file(r.File)
		rng := vw.enc.toRange(rf, r.Span)
		if !dc.related {
			// A client without relatedInformation gets it in the message,
			// with a 1-based line and column as editors show them.
			inline = append(inline, text.Visible(fmt.Sprintf("%s:%d:%d: %s", r.File, rng.Start.Line+1, rng.Start.Character+1, r.Message)))
			continue
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uriFor(vw.docs, vw.plugin.Abs(r.File)), Range: rng},
			Message:  text.VisibleBlock(r.Message),
		})
	}
	if len(inline) > 0 {
		pd.Message = protocol.String(text.VisibleBlock(d.Message) + "\n(" + strings.Join(inline, "; ") + ")")
	}
	return pd
}

// publish pushes the diagnostics of every file of the plugin that has
// some, that had some before, or that is open, skipping files whose
// diagnostics did not change since the last push. For a client that pulls
// diagnostics, open files are left to the pull (their old pushes are
// cleared) and the other files are still pushed, so that a page nobody
// opened still shows its problems.
func (s *Server) publish(ctx context.Context, ps *pluginState, vw *view, pull bool) {
	ps.pubMu.Lock()
	defer ps.pubMu.Unlock()
	files := map[string]bool{} // plugin-relative
	if vw.plugin != nil {
		for _, d := range vw.diags {
			files[d.File] = true
		}
	}
	if !pull {
		for p := range vw.docs {
			if rel, ok := relTo(ps.dir, p); ok {
				files[rel] = true
			}
		}
	}
	byURI := map[uri.URI]string{}
	for rel := range files {
		byURI[uriFor(vw.docs, absIn(ps.dir, rel))] = rel
	}
	for u := range ps.published {
		if _, ok := byURI[uri.URI(u)]; !ok {
			byURI[uri.URI(u)] = "" // had diagnostics, file no longer reported
		}
	}
	keys := make([]string, 0, len(byURI))
	for u := range byURI {
		keys = append(keys, string(u))
	}
	sort.Strings(keys)
	for _, k := range keys {
		rel := byURI[uri.URI(k)]
		_, open := vw.docs[absIn(ps.dir, rel)]
		open = open && rel != ""
		diags := []protocol.Diagnostic{}
		if rel != "" && !(pull && open) {
			diags = s.fileDiagnostics(vw, rel)
		}
		h := hashDiagnostics(diags)
		prev, had := ps.published[k]
		if had && prev == h || !had && len(diags) == 0 && (pull || !open) {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		params := &protocol.PublishDiagnosticsParams{URI: uri.URI(k), Diagnostics: diags}
		if d, ok := vw.docs[absIn(ps.dir, rel)]; ok && rel != "" {
			params.Version = protocol.NewOptional(d.version)
		}
		if err := s.client.PublishDiagnostics(ctx, params); err != nil {
			return
		}
		if len(diags) == 0 && (!open || pull) {
			delete(ps.published, k)
		} else {
			ps.published[k] = h
		}
		if s.onPublish != nil {
			s.onPublish(k, len(diags))
		}
	}
}

// hashDiagnostics is the identity of a published list.
func hashDiagnostics(ds []protocol.Diagnostic) string {
	b, err := protocol.Marshal(ds)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Diagnostic answers a pull request (textDocument/diagnostic) for one file.
func (s *Server) Diagnostic(ctx context.Context, params *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	path := pathOf(params.TextDocument.URI)
	s.mu.Lock()
	ps := s.pluginFor(path)
	s.mu.Unlock()
	full := &protocol.RelatedFullDocumentDiagnosticReport{}
	full.Kind = string(protocol.DocumentDiagnosticReportKindFull)
	full.Items = []protocol.Diagnostic{}
	if ps == nil {
		return full, nil
	}
	vw := s.check(ps)
	rel, _ := relTo(ps.dir, path)
	items := s.fileDiagnostics(vw, rel)
	id := hashDiagnostics(items)
	if params.PreviousResultID != nil && *params.PreviousResultID == id {
		un := &protocol.RelatedUnchangedDocumentDiagnosticReport{}
		un.Kind = string(protocol.DocumentDiagnosticReportKindUnchanged)
		un.ResultID = id
		return un, nil
	}
	full.Items = items
	full.ResultID = &id
	return full, nil
}
