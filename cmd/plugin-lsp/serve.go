package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/plugin-lsp/plugin-lsp/lsp"
)

// serveMemoryLimit is the server's base soft memory limit unless
// GOMEMLIMIT sets one (docs/lsp.md, "Memory").
const serveMemoryLimit = 100 << 20

// cmdServe runs the language server over stdin/stdout.
func cmdServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	docsURL := fs.String("docs-url", "", "base URL of the rule docs (default: docs/rules.md of this checkout as a file:// URL, when found)")
	debounce := fs.Duration("debounce", lsp.DefaultDebounce, "delay between an edit and its check")
	_ = fs.Bool("stdio", true, "serve over stdin/stdout (the only transport; accepted for clients that pass it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *docsURL == "" {
		exe, _ := os.Executable()
		wd, _ := os.Getwd()
		*docsURL = lsp.FindRulesDoc(exe, wd)
	}
	if dir := os.Getenv("PLUGIN_LSP_MEMTRACE"); dir != "" {
		memTrace(dir)
	}
	var memLimit int64
	if os.Getenv("GOMEMLIMIT") == "" {
		memLimit = serveMemoryLimit
	}
	if *debounce == 0 {
		*debounce = -1 // no delay
	}
	srv := lsp.New(lsp.Options{
		Runner:   newToolRunner(),
		DocsURL:  *docsURL,
		Debounce: *debounce,
		Log:      stderr,
		Version:  version,
		Review:   reviewCard,

		MemoryLimit: memLimit,
	})
	// The server logs why a session ended without shutdown and exit.
	return srv.ServeStdio(context.Background(), stdin, stdout)
}
