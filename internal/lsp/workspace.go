package lsp

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// pluginState is everything the server keeps about one plugin directory.
// Fields marked (s.mu) are guarded by Server.mu; checkMu serializes checks.
type pluginState struct {
	dir string

	checkMu sync.Mutex

	gen uint64 // (s.mu) bumped by every change to the plugin's files
	// runsOnlyFrom (s.mu): when non-zero, every bump of gen since this
	// generation was a run's (its record changes learnt diagnostics, not
	// files): a view of that generation or later holds the plugin's files
	// as they are (runView).
	runsOnlyFrom uint64
	timer        *time.Timer         // (s.mu) pending debounced check
	cancel       context.CancelFunc  // (s.mu) cancels the pending/running check
	view         *view               // (s.mu) last check
	runs         map[string]*toolRun // (s.mu) last run of each tool
	tests        ide.TestResults     // (s.mu) last result of each test case (ide.TestKey)
	stale        string              // (s.mu) which runs the last check found stale (ide.View.StaleKey)
	// cache memoizes the plugin's per-file analyses; check sweeps it, so
	// it holds what the latest check used and nothing else.
	cache *checker.Cache
	// editsPending: edits wait for a save (a manifest over
	// MaxLiveManifestBytes). (s.mu)
	editsPending bool
	// closedSince: a document of the plugin was closed since the last
	// check, whose sweep then keeps only what it used. (s.mu)
	closedSince bool
	// commanded: the user ran a command on the plugin (pluginOf); with
	// no workspace folder, saves may regenerate its types only then. (s.mu)
	commanded bool
	pubMu     sync.Mutex
	published map[string]string // (pubMu) URI → hash of what was last pushed
	pulled    map[string]string // (pubMu) URI → resultId last pulled
}

// toolRun is the outcome of the last run of a tool, shown by lenses,
// inlay hints and hover, and the source of learnt fetch diagnostics.
type toolRun struct {
	record *record.Record
	err    string // the run could not start (no sandbox, bad input)
	input  []byte
	at     time.Time
	basis  ide.Basis // what it ran against, for lenses that say it is stale
}

// view is the result of one check of a plugin: the files as they were
// (overlay included) and every diagnostic.
type view struct {
	gen    uint64
	enc    encoding        // the session's position encoding
	caps   clientCaps      // the client's capabilities, for what is sent
	plugin *checker.Plugin // nil when plugin.json is gone
	docs   map[string]*document
	diags  []checker.Diagnostic
	runs   map[string]*toolRun
	tests  ide.TestResults
	// explored is what exploration found for this view's inputs (nil:
	// not yet, or not explored). A check whose inputs agree with the
	// last explored view's keeps it (Server.check).
	explored map[string]*checker.Exploration
}

// adopt returns vw with the documents opened since it was taken whose
// text is the file on disk the check read (document.sameAsDisk): its
// results stand for them, and a push client gets their diagnostics (an
// empty list for a clean file) without a second check of the plugin.
// Callers hold s.mu.
func (s *Server) adopt(ps *pluginState, vw *view) *view {
	var add []*document
	for p, d := range s.docs {
		if _, had := vw.docs[p]; had || !d.sameAsDisk || !vw.readAs(p, d.text) {
			continue
		}
		if _, in := relTo(ps.dir, p); in {
			add = append(add, d)
		}
	}
	if len(add) == 0 {
		return vw
	}
	c := *vw
	c.docs = make(map[string]*document, len(vw.docs)+len(add))
	for p, d := range vw.docs {
		c.docs[p] = d
	}
	for _, d := range add {
		dc := *d
		c.docs[d.path] = &dc
	}
	if ps.view == vw {
		ps.view = &c
	}
	return &c
}

// readAs reports whether the check of vw read the file at path with
// this text, or did not read it at all (its result does not depend on
// it). A file written on disk since the check differs.
func (vw *view) readAs(path string, text []byte) bool {
	if vw.plugin == nil {
		return false
	}
	rel, ok := vw.plugin.Rel(path)
	if !ok {
		return false
	}
	f, read := vw.plugin.Cached(rel)
	return !read || bytes.Equal(f.Text, text)
}

// pluginFor returns the plugin that owns path: the nearest directory at or
// above it holding a plugin.json (open buffer or disk). It registers newly
// found plugins. Callers hold s.mu.
func (s *Server) pluginFor(path string) *pluginState {
	dir := filepath.Dir(path)
	if filepath.Base(path) == checker.ManifestName {
		return s.ensurePlugin(dir)
	}
	for {
		if ps, ok := s.plugins[dir]; ok {
			return ps
		}
		m := filepath.Join(dir, checker.ManifestName)
		if _, open := s.docs[m]; open || fileExists(m) {
			return s.ensurePlugin(dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir || s.outsideRoots(parent) {
			return nil
		}
		dir = parent
	}
}

// outsideRoots reports whether dir is above every workspace folder, which
// is where the search for an owning plugin stops. With no folders (a
// single file opened) the search goes up to the file system root.
func (s *Server) outsideRoots(dir string) bool {
	if len(s.roots) == 0 {
		return false
	}
	for _, r := range s.roots {
		if dir == r || strings.HasPrefix(dir, r+string(filepath.Separator)) {
			return false
		}
	}
	return true
}

// ensurePlugin returns the state of dir, creating it. Callers hold s.mu.
func (s *Server) ensurePlugin(dir string) *pluginState {
	if ps, ok := s.plugins[dir]; ok {
		return ps
	}
	ps := &pluginState{
		dir: dir, runs: map[string]*toolRun{}, cache: checker.NewCache(),
		published: map[string]string{}, pulled: map[string]string{},
	}
	s.plugins[dir] = ps
	return ps
}

// addRoot registers a workspace folder and reports whether it is new.
// Callers hold s.mu; the plugins below it are found by scanRoot, without
// the lock (a large folder takes a while to walk).
func (s *Server) addRoot(root string) bool {
	root = filepath.Clean(root)
	for _, r := range s.roots {
		if r == root {
			return false
		}
	}
	s.roots = append(s.roots, root)
	return true
}

// scanRoot finds every plugin below a workspace folder and checks them.
func (s *Server) scanRoot(root string) {
	dirs, _ := checker.FindPlugins(root)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range dirs {
		d = filepath.Clean(d)
		_, known := s.plugins[d]
		ps := s.ensurePlugin(d)
		if !known {
			s.scheduleIn(ps, true)
		}
	}
}

// removeRoot forgets a workspace folder and the plugins below it that no
// open document belongs to. Callers hold s.mu.
func (s *Server) removeRoot(root string) []*pluginState {
	root = filepath.Clean(root)
	keep := s.roots[:0]
	for _, r := range s.roots {
		if r != root {
			keep = append(keep, r)
		}
	}
	s.roots = keep
	var gone []*pluginState
	for dir, ps := range s.plugins {
		if dir == root || strings.HasPrefix(dir, root+string(filepath.Separator)) {
			if ps.timer != nil {
				ps.timer.Stop()
			}
			if ps.cancel != nil {
				ps.cancel()
			}
			delete(s.plugins, dir)
			gone = append(gone, ps)
		}
	}
	return gone
}

// touch records a change to path: the plugin it belongs to gets a new
// generation and a debounced check (at once when now is set). Callers
// hold s.mu.
func (s *Server) touch(path string, now bool) {
	if ps := s.pluginFor(path); ps != nil {
		s.scheduleIn(ps, now)
	}
}

// touchAll re-checks every plugin (settings changed). Callers hold s.mu.
func (s *Server) touchAll() {
	for _, ps := range s.plugins {
		s.scheduleIn(ps, true)
	}
}

// stopChecks cancels every pending check and the idle trim (the
// connection is closing).
func (s *Server) stopChecks() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.trimTimer != nil {
		s.trimTimer.Stop()
	}
	for _, ps := range s.plugins {
		if ps.timer != nil {
			ps.timer.Stop()
		}
		if ps.cancel != nil {
			ps.cancel()
		}
	}
}

// relTo returns the slash path of path relative to dir, and false when it
// is not inside dir.
func relTo(dir, path string) (string, bool) {
	r, err := filepath.Rel(dir, path)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// absIn returns the OS path of a plugin-relative slash path.
func absIn(dir, rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }

func isManifest(p string) bool { return filepath.Base(p) == checker.ManifestName }
