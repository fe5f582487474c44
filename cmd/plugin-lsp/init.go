package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis/scaffold"
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
	var dir, tool string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			if dir != "" {
				fmt.Fprintf(stderr, "plugin-lsp init: one DIR only (got %q and %q)\n\n%s", dir, a, initUsage)
				return 2
			}
			dir = a
		case name == "h" || name == "help":
			fmt.Fprint(stdout, initUsage)
			return 0
		case name == "tool":
			if !hasVal {
				if i+1 >= len(args) {
					fmt.Fprintf(stderr, "plugin-lsp init: --tool needs a value\n\n%s", initUsage)
					return 2
				}
				i++
				val = args[i]
			}
			tool = val
		default:
			fmt.Fprintf(stderr, "plugin-lsp init: unknown flag %s\n\n%s", a, initUsage)
			return 2
		}
	}
	if dir == "" {
		fmt.Fprintf(stderr, "plugin-lsp init: no directory given\n\n%s", initUsage)
		return 2
	}
	changes, err := scaffold.Init(dir, tool)
	for _, line := range scaffold.Summary(changes) {
		fmt.Fprintln(stdout, line)
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp init: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "\nnext: plugin-lsp check %[1]s && plugin-lsp test %[1]s\n", dir)
	return 0
}
