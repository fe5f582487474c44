package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// DidOpen puts the document in the overlay and schedules a check of its
// plugin.
func (s *Server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	path := pathOf(params.TextDocument.URI)
	if path == "" {
		return nil
	}
	text := []byte(params.TextDocument.Text)
	same := sameAsDisk(path, text)
	s.mu.Lock()
	defer s.mu.Unlock()
	_, wasOpen := s.docs[path]
	s.docs[path] = &document{
		uri: strings.Clone(string(params.TextDocument.URI)), path: path, // not the message's memory (pathOf)
		version: params.TextDocument.Version, text: text, sameAsDisk: same && !wasOpen,
	}
	if ps := s.pluginFor(path); ps != nil && same && !wasOpen && ps.gen > 0 && ps.view != nil && ps.view.gen == ps.gen && ps.view.readAs(path, text) {
		// The plugin's inputs did not change (the last check read this
		// very text, or did not read the file): no new check; the last
		// one is republished with the document.
		{
			vw := s.adopt(ps, ps.view)
			pull := s.caps.pullDiagnostics
			s.safeGo("publish", func() {
				s.mu.Lock()
				current := ps.gen == vw.gen
				s.mu.Unlock()
				if current {
					s.publish(s.ctx, ps, vw, pull)
				}
			})
		}
		return nil
	}
	s.touch(path, true)
	return nil
}

// DidChange applies the changes (full text, or ranges for clients that
// send them anyway) and schedules a check.
func (s *Server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	path := pathOf(params.TextDocument.URI)
	if path == "" {
		return nil // untitled: and other schemes are not opened either (DidOpen)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[path]
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open", params.TextDocument.URI)
	}
	text := d.text
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			f := checker.NewFile("", text)
			sp := s.caps.enc.fromRange(f, c.Range)
			nt := make([]byte, 0, len(text)-(sp.End-sp.Start)+len(c.Text))
			nt = append(nt, text[:sp.Start]...)
			nt = append(nt, c.Text...)
			nt = append(nt, text[sp.End:]...)
			text = nt
		}
	}
	s.docs[path] = &document{uri: d.uri, path: path, version: params.TextDocument.Version, text: text}
	if s.deferLargeEdit(path) {
		return nil
	}
	s.touch(path, false)
	return nil
}

// DidClose drops the document from the overlay: the disk is the truth
// again.
func (s *Server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	path := pathOf(params.TextDocument.URI)
	s.mu.Lock()
	d, ok := s.docs[path]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	// Notifications are handled in order: nothing else changes the
	// document while the disk is read.
	same := sameAsDisk(path, d.text)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.docs, path)
	if ps := s.pluginFor(path); ps != nil {
		ps.closedSince = true
		if !same {
			// The buffer's analyses go now, not with the sweep of the
			// check that reads the disk (which would hold both).
			ps.cache.Forget(d.text)
		}
	}
	s.touch(path, false)
	return nil
}

// DidSave checks a plugin whose edits waited for the save (a manifest
// over MaxLiveManifestBytes); otherwise the overlay already holds the
// saved text and its check ran. The save of a plugin.json is also when
// an existing .plugin/types.d.ts is brought up to date (typesOnSave):
// the server writes in answer to the user, never on open or edit.
func (s *Server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	path := pathOf(params.TextDocument.URI)
	if path == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := s.pluginFor(path)
	if ps == nil {
		return nil
	}
	if ps.editsPending {
		ps.editsPending = false
		s.scheduleIn(ps, true)
	}
	// A native module's definitions (inputs, requires) are in
	// .plugin/native.d.ts too.
	if isManifest(path) && ps.dir == filepath.Dir(path) || strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".mjs") {
		s.typesOnSave(ps)
	}
	return nil
}

// typesOnSave rewrites the plugin's .plugin/types.d.ts from the saved
// manifest when the file exists and is out of date (keepTypesFresh), if
// the plugin is one the server may write into unasked (mayWriteUnasked:
// inside a workspace folder). Callers hold s.mu; the check and the write
// run on their own goroutine.
func (s *Server) typesOnSave(ps *pluginState) {
	if !s.mayWriteUnasked(ps) {
		return
	}
	hook := s.typesHook
	if hook != nil {
		hook(ps.dir, false)
	}
	s.safeGo("types", func() {
		if hook != nil {
			defer hook(ps.dir, true)
		}
		// The one writer refuses a symlinked .plugin/ or types.d.ts.
		if s.keepTypesFresh(s.check(ps)) {
			// The check before the write reported types-stale: check again,
			// without waiting for the client's file watcher (not every
			// client has one).
			s.mu.Lock()
			s.schedule(ps)
			s.mu.Unlock()
		}
	})
}

// DidChangeWatchedFiles re-checks the plugins whose files changed on disk
// (created pages, deleted modules, edits made outside the editor).
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range params.Changes {
		path := pathOf(c.URI)
		if path == "" {
			continue
		}
		if c.Type == protocol.FileChangeTypeDeleted {
			if ps, ok := s.plugins[filepath.Dir(path)]; ok && isManifest(path) && !fileExists(path) {
				s.schedule(ps)
				continue
			}
		}
		if isManifest(path) && c.Type == protocol.FileChangeTypeCreated {
			s.ensurePlugin(filepath.Dir(path))
		}
		s.touch(path, false)
	}
	return nil
}
