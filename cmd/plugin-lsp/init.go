package main

import (
	"fmt"
	"io"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/scaffold"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

func cmdInit(args []string, stdout, stderr io.Writer) int {
	spec := cmdSpec("init")
	var tool, native string
	toolSet := false
	pos, err := spec.parse(args, func(name, val string) error {
		switch name {
		case "tool":
			tool, toolSet = val, true
		case "native":
			native = val
		default:
			return noHandler(spec.name, name)
		}
		return nil
	})
	switch {
	case err == errHelp:
		fmt.Fprint(stdout, spec.usage())
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "plugin-lsp init: %v\n\n%s", err, spec.usage())
		return 2
	case toolSet && native != "":
		fmt.Fprintf(stderr, "plugin-lsp init: --tool and --native exclude each other (one tool per run)\n\n%s", spec.usage())
		return 2
	case len(pos) > 1:
		fmt.Fprintf(stderr, "plugin-lsp init: one DIR only (got %q and %q)\n\n%s", pos[0], pos[1], spec.usage())
		return 2
	}
	dir := ""
	if len(pos) == 1 {
		dir = pos[0]
	}
	if dir == "" {
		fmt.Fprintf(stderr, "plugin-lsp init: no directory given\n\n%s", spec.usage())
		return 2
	}
	var changes []scaffold.Change
	if native != "" {
		changes, err = scaffold.InitNative(dir, native)
	} else {
		changes, err = scaffold.Init(dir, tool)
	}
	for _, line := range scaffold.Summary(changes) {
		fmt.Fprintln(stdout, text.Visible(line))
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp init: %v\n", err)
		return 1
	}
	if native != "" {
		fmt.Fprintf(stdout, "\nnext: plugin-lsp check %[1]s && plugin-lsp test --trust-native %[1]s\n", line(dir))
		return 0
	}
	fmt.Fprintf(stdout, "\nnext: plugin-lsp check %[1]s && plugin-lsp test %[1]s\n", line(dir))
	return 0
}
