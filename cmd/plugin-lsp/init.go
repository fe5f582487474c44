package main

import (
	"fmt"
	"io"

	"github.com/plugin-lsp/plugin-lsp/analysis/scaffold"
	"github.com/plugin-lsp/plugin-lsp/analysis/text"
)

const initUsage = `usage: plugin-lsp init DIR [--tool NAME]

Creates a plugin in DIR (when DIR has no plugin.json) with one function
tool that checks clean, runs against its fixtures, is typed and has a
passing test: plugin.json, code/<tool>.ts, fixtures.json, tests/<tool>.json,
.plugin/types.d.ts and tsconfig.json. In a plugin that exists, --tool NAME
adds a tool the same way (manifest entry, page, fixture, test).
Existing files are never overwritten; running init twice changes nothing.

  --tool NAME   the tool to create (default "greet")
`

func cmdInit(args []string, stdout, stderr io.Writer) int {
	var tool string
	pos, err := scanArgs(args, nil, []string{"tool"}, func(_, val string) error { tool = val; return nil })
	switch {
	case err == errHelp:
		fmt.Fprint(stdout, initUsage)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "plugin-lsp init: %v\n\n%s", err, initUsage)
		return 2
	case len(pos) > 1:
		fmt.Fprintf(stderr, "plugin-lsp init: one DIR only (got %q and %q)\n\n%s", pos[0], pos[1], initUsage)
		return 2
	}
	dir := ""
	if len(pos) == 1 {
		dir = pos[0]
	}
	if dir == "" {
		fmt.Fprintf(stderr, "plugin-lsp init: no directory given\n\n%s", initUsage)
		return 2
	}
	changes, err := scaffold.Init(dir, tool)
	for _, line := range scaffold.Summary(changes) {
		fmt.Fprintln(stdout, text.Visible(line))
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp init: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nnext: plugin-lsp check %[1]s && plugin-lsp test %[1]s\n", line(dir))
	return 0
}
