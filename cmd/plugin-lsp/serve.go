package main

import (
	"context"
	"flag"
	"io"
	"os"
	"runtime/debug"

	"github.com/plugin-lsp/plugin-lsp/lsp"
)

// serveMemoryLimit is the server's soft memory limit unless GOMEMLIMIT
// sets one: the garbage collector works harder as the heap nears it, which
// keeps an editor session's peak RSS near what the analysis of its largest
// page needs (docs/lsp.md, "Memory").
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
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
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
	})
	// The server logs why a session ended without shutdown and exit.
	return srv.ServeStdio(context.Background(), stdin, stdout)
}
