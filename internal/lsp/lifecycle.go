package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
	"go.lsp.dev/uri"
)

// Commands the server executes (workspace/executeCommand).
const (
	CommandRunTool    = ide.CommandRunTool
	CommandReviewCard = ide.CommandReviewCard
)

// Initialize records the client's capabilities and workspace folders and
// answers with the server's capabilities.
func (s *Server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateNew {
		return nil, errInvalidRequest("initialize was already called")
	}
	s.caps = readCaps(&params.Capabilities)
	// Pull mode only for a client the server can ask to pull again: a
	// check caused by another file (the quick fix edits plugin.json, the
	// page's diagnostics change) must reach the client, and a client
	// without refresh support would keep the page's old report until the
	// page itself is edited. Such a client is pushed to instead, and not
	// offered diagnosticProvider, so that it shows one set (Neovim 0.10
	// would show the pulled and the pushed lists side by side).
	s.caps.pullDiagnostics = s.caps.pullDiagnostics && s.caps.diagnosticRefresh
	s.caps.diag = readDiagCaps(&params.Capabilities, s.caps.pullDiagnostics)
	if folders, ok := params.WorkspaceFolders.Get(); ok && len(folders) > 0 {
		for _, f := range folders {
			if p := pathOf(f.URI); p != "" {
				s.addRoot(p)
			}
		}
	} else if params.RootURI != nil {
		if p := pathOf(*params.RootURI); p != "" {
			s.addRoot(p)
		}
	}
	if len(params.InitializationOptions) > 0 {
		if st, err := parseSettings(params.InitializationOptions); err == nil {
			s.config = st
		}
	}
	s.state = stateInitialized

	commands := []string{CommandRunTool, CommandPin, CommandRunTests, CommandAcceptSnapshot, CommandGenerateTypes, CommandNativeTool}
	if s.opts.Review != nil {
		commands = append(commands, CommandReviewCard)
	}
	// Incremental: an edit of a large file costs the client and the
	// server the changed range, not a copy of the whole text in JSON (a
	// full-text change of a 25 MB manifest takes the protocol decoder
	// most of a second). Full-text changes are accepted too.
	change := protocol.TextDocumentSyncKindIncremental
	caps := protocol.ServerCapabilities{
		PositionEncoding: s.caps.enc.kind(),
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: new(true), Change: &change, Save: protocol.Boolean(true),
		},
		HoverProvider:          protocol.Boolean(true),
		DefinitionProvider:     protocol.Boolean(true),
		DocumentSymbolProvider: protocol.Boolean(true),
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, protocol.CodeActionKindSource, protocol.CodeActionKindSourceFixAll},
		},
		CodeLensProvider:       &protocol.CodeLensOptions{},
		ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: commands},
		CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{"\"", ".", "/"}},
		InlayHintProvider:      protocol.Boolean(true),
		Workspace: &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
			Supported: new(true), ChangeNotifications: protocol.Boolean(true),
		}},
	}
	if s.caps.pullDiagnostics {
		caps.DiagnosticProvider = &protocol.DiagnosticOptions{Identifier: new("plugin-lsp"), InterFileDependencies: true}
	}
	return &protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   protocol.ServerInfo{Name: "plugin-lsp", Version: protocol.NewOptional(s.version())},
	}, nil
}

func (s *Server) version() string {
	if s.opts.Version == "" {
		return "dev"
	}
	return s.opts.Version
}

func readCaps(c *protocol.ClientCapabilities) clientCaps {
	var cc clientCaps
	if w := c.Workspace; w != nil {
		cc.configuration = w.Configuration != nil && *w.Configuration
		if w.Diagnostics != nil && w.Diagnostics.RefreshSupport != nil {
			cc.diagnosticRefresh = *w.Diagnostics.RefreshSupport
		}
		if w.CodeLens != nil && w.CodeLens.RefreshSupport != nil {
			cc.codeLensRefresh = *w.CodeLens.RefreshSupport
		}
		if w.InlayHint != nil && w.InlayHint.RefreshSupport != nil {
			cc.inlayHintRefresh = *w.InlayHint.RefreshSupport
		}
		if we := w.WorkspaceEdit; we != nil {
			cc.documentChanges = we.DocumentChanges != nil && *we.DocumentChanges
			for _, k := range we.ResourceOperations {
				if string(k) == "create" {
					cc.resourceCreate = true
				}
			}
		}
		if w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
			cc.watchRegistration = *w.DidChangeWatchedFiles.DynamicRegistration
		}
	}
	if w := c.Window; w != nil && w.WorkDoneProgress != nil {
		cc.workDoneProgress = *w.WorkDoneProgress
	}
	if g := c.General; g != nil {
		cc.enc = negotiateEncoding(g.PositionEncodings)
	}
	if t := c.TextDocument; t != nil {
		cc.pullDiagnostics = t.Diagnostic != nil
		if t.Hover != nil {
			cc.hoverMarkdown = hasMarkdown(t.Hover.ContentFormat)
		}
		if t.Completion != nil && t.Completion.CompletionItem != nil {
			cc.completionDocMD = hasMarkdown(t.Completion.CompletionItem.DocumentationFormat)
		}
	}
	return cc
}

// Initialized asks to be told about file changes, finds and checks every
// plugin of the workspace folders, and fetches the settings.
func (s *Server) Initialized(ctx context.Context, params *protocol.InitializedParams) error {
	s.safeGo("initialized", func() {
		s.mu.Lock()
		watch := s.caps.watchRegistration
		s.mu.Unlock()
		if watch {
			opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
				Watchers: []protocol.FileSystemWatcher{{GlobPattern: protocol.Pattern("**/*.{json,ts,js,mjs,cjs,mts}")}},
			})
			if err == nil {
				_ = s.client.RegisterCapability(s.ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
					ID: "plugin-lsp-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
				}}})
			}
		}
		s.mu.Lock()
		roots := append([]string(nil), s.roots...)
		s.mu.Unlock()
		for _, r := range roots {
			s.scanRoot(r)
		}
		s.fetchSettings(s.ctx) // when there are settings, re-checks every plugin
	})
	return nil
}

// Shutdown stops pending checks and cancels the tool runs in flight (a
// busy loop would otherwise run to its deadline after the editor left);
// the server then refuses requests until exit.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.state = stateShutdown
	for _, cancel := range s.runCancels {
		cancel()
	}
	s.mu.Unlock()
	s.stopChecks()
	return nil
}

// Exit ends the session: exit code 0 after shutdown, 1 without it.
func (s *Server) Exit(ctx context.Context) error {
	s.mu.Lock()
	code := 1
	if s.state == stateShutdown {
		code = 0
	}
	s.mu.Unlock()
	s.exitOnce.Do(func() { s.exitCode = code; close(s.exited) })
	return nil
}

// DidChangeWorkspaceFolders adds and removes plugin roots.
func (s *Server) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	var gone []*pluginState
	for _, f := range params.Event.Removed {
		if p := pathOf(f.URI); p != "" {
			gone = append(gone, s.removeRoot(p)...)
		}
	}
	for _, f := range params.Event.Added {
		if p := pathOf(f.URI); p != "" {
			if s.addRoot(p) {
				s.safeGo("scan folder", func() { s.scanRoot(p) })
			}
		}
	}
	s.mu.Unlock()
	for _, ps := range gone {
		s.safeGo("clear diagnostics", func() { s.clearPublished(ps) })
	}
	return nil
}

// clearPublished empties every diagnostic list pushed for a plugin.
func (s *Server) clearPublished(ps *pluginState) {
	ps.pubMu.Lock()
	defer ps.pubMu.Unlock()
	for u := range ps.published {
		_ = s.client.PublishDiagnostics(s.ctx, &protocol.PublishDiagnosticsParams{URI: uri.URI(u), Diagnostics: []protocol.Diagnostic{}})
		delete(ps.published, u)
	}
}
