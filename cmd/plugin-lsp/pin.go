package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/snapshot"
)

const pinUsage = `usage: plugin-lsp pin DIR

Writes DIR/plugin.lock.json, the capability snapshot of the plugin in DIR:
its source-tree hash, name and version, per function tool its host methods,
fetch domains with caps and credentials (names and scopes, never values),
per native tool its module, module hash, requires and needsApproval
(docs/snapshot.md). check and the language server then report drift:
snapshot-widened, snapshot-narrowed, snapshot-stale. Review the card
(plugin-lsp review DIR) before you pin. Prints what changed since the
previous snapshot. Exit status: 0 written, 1 the tree cannot be hashed or
the file not written, 2 bad usage.
`

func cmdPin(args []string, stdout, stderr io.Writer) int {
	var dirs []string
	for _, a := range args {
		switch a {
		case "-h", "--help", "-help":
			fmt.Fprint(stdout, pinUsage)
			return 0
		}
		if len(a) > 1 && a[0] == '-' {
			fmt.Fprintf(stderr, "plugin-lsp pin: unknown flag %s\n\n%s", a, pinUsage)
			return 2
		}
		dirs = append(dirs, a)
	}
	if len(dirs) != 1 {
		fmt.Fprintf(stderr, "plugin-lsp pin: want exactly one plugin directory, got %d\n\n%s", len(dirs), pinUsage)
		return 2
	}
	p, err := analysis.Load(nil, dirs[0])
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp pin: %s\n", line(err))
		return 2
	}
	res, err := snapshot.Pin(p, "plugin-lsp "+version)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp pin: %s\n", line(err))
		return 1
	}
	fmt.Fprint(stdout, res.Text(filepath.Join(dirs[0], snapshot.FileName)))
	if res.Problems > 0 {
		fmt.Fprintf(stderr, "plugin-lsp pin: note: %d capability entries of plugin.json are malformed and grant nothing (plugin-lsp check lists them); they are not in the snapshot\n", res.Problems)
	}
	return 0
}
