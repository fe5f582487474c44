package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/lsp"
)

// serveMemoryLimit is the server's base soft memory limit unless
// GOMEMLIMIT sets one (docs/lsp.md, "Memory").
const serveMemoryLimit = 100 << 20

// cmdServe runs the language server over stdin/stdout.
func cmdServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	spec := cmdSpec("serve")
	docsURL, debounce := "", lsp.DefaultDebounce
	pos, err := spec.parse(args, func(name, val string) error {
		switch name {
		case "docs-url":
			docsURL = val
		case "debounce":
			d, err := time.ParseDuration(val)
			if err != nil || d < 0 {
				return fmt.Errorf("--debounce %q is not a duration (e.g. 100ms, 0)", val)
			}
			debounce = d
		case "stdio":
		default:
			return noHandler(spec.name, name)
		}
		return nil
	})
	if err == nil && len(pos) > 0 {
		err = fmt.Errorf("unexpected argument %q", pos[0])
	}
	if err == errHelp {
		fmt.Fprint(stderr, spec.usage()) // stdout is the LSP stream
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp serve: %v\n\n%s", err, spec.usage())
		return 2
	}
	if docsURL == "" {
		exe, _ := os.Executable()
		wd, _ := os.Getwd()
		docsURL = lsp.FindRulesDoc(exe, wd)
	}
	if dir := os.Getenv("PLUGIN_LSP_MEMTRACE"); dir != "" {
		memTrace(dir)
	}
	var memLimit int64
	if os.Getenv("GOMEMLIMIT") == "" {
		memLimit = serveMemoryLimit
	}
	if debounce == 0 {
		debounce = -1 // no delay
	}
	srv := lsp.New(lsp.Options{
		Runner: newToolRunner(),
		// Native tools run in Node.js, each after the user approved it.
		NativeRunner: lsp.HarnessRunner{},
		DocsURL:      docsURL,
		Debounce:     debounce,
		Log:          stderr,
		Version:      version,
		Review:       reviewCard,
		Explore:      (&lazyExplorer{}).explore,

		MemoryLimit: memLimit,
	})
	// The server logs why a session ended without shutdown and exit.
	return srv.ServeStdio(context.Background(), stdin, stdout)
}
