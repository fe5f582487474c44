package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

func cmdPin(args []string, stdout, stderr io.Writer) int {
	spec := cmdSpec("pin")
	dirs, err := spec.parse(args, func(name, _ string) error { return noHandler(spec.name, name) })
	if err == errHelp {
		fmt.Fprint(stdout, spec.usage())
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp pin: %v\n\n%s", err, spec.usage())
		return 2
	}
	if len(dirs) != 1 {
		fmt.Fprintf(stderr, "plugin-lsp pin: want exactly one plugin directory, got %d\n\n%s", len(dirs), spec.usage())
		return 2
	}
	p, err := checker.Load(nil, dirs[0])
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp pin: %s\n", line(err))
		return 2
	}
	res, err := lockfile.Pin(p, "plugin-lsp "+version)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp pin: %s\n", line(err))
		return 1
	}
	fmt.Fprint(stdout, res.Text(filepath.Join(dirs[0], lockfile.FileName)))
	if res.Problems > 0 {
		fmt.Fprintf(stderr, "plugin-lsp pin: note: %d capability entries of plugin.json are malformed and grant nothing (plugin-lsp check lists them); they are not in the snapshot\n", res.Problems)
	}
	return 0
}
