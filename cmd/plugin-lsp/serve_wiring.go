package main

import (
	"context"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/explore"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// lazyExplorer prepares the exploring sandboxes on the first exploration
// (after the first static publish), so startup does not pay for them.
type lazyExplorer struct {
	once sync.Once
	x    *explore.Explorer
	err  error
}

func (l *lazyExplorer) explore(ctx context.Context, p *checker.Plugin) map[string]*checker.Exploration {
	l.once.Do(func() { l.x, l.err = explore.New(explore.Options{}) })
	if l.err != nil {
		return nil
	}
	return l.x.Plugin(ctx, p)
}

// lazyRunner creates the sandbox runner on the first run: preparing the
// QuickJS engine takes most of a second and tens of MB, which an editor
// session that never runs a tool should not pay at startup.
type lazyRunner struct {
	once sync.Once
	r    *runner.Runner
	err  error
}

func newToolRunner() runner.ToolRunner { return &lazyRunner{} }

func (l *lazyRunner) Run(ctx context.Context, req runner.Request) (*record.Record, error) {
	l.once.Do(func() { l.r, l.err = runner.New(runner.Config{}) })
	if l.err != nil {
		return nil, l.err
	}
	return l.r.Run(ctx, req)
}

// reviewCard is the model of plugin.reviewCard: the install review card of
// the plugin as the editor shows it, with the source-tree hash of the
// files on disk (unsaved buffers are not part of what gets installed).
func reviewCard(p *checker.Plugin) (any, error) {
	// The checker's errors, as plugin-lsp review lists them: the same card.
	var diags []checker.Diagnostic
	func() {
		defer func() { _ = recover() }() // a rule's bug costs the card its error list, not the session
		diags = checker.Run(p, rules.All(), nil, nil)
	}()
	c, _, _ := review.ForApproval(p, diags)
	return c, nil
}
