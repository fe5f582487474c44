package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
)

func cmdTypes(args []string, stdout, stderr io.Writer) int {
	spec := cmdSpec("types")
	check, toStdout := false, false
	dirs, err := spec.parse(args, func(name, _ string) error {
		switch name {
		case "check":
			check = true
		case "stdout":
			toStdout = true
		default:
			return noHandler(spec.name, name)
		}
		return nil
	})
	if err == errHelp {
		fmt.Fprint(stdout, spec.usage())
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp types: %v\n\n%s", err, spec.usage())
		return 2
	}
	if len(dirs) == 0 {
		fmt.Fprintf(stderr, "plugin-lsp types: no plugin directory given\n\n%s", spec.usage())
		return 2
	}
	if toStdout {
		return typesToStdout(check, dirs, stdout, stderr)
	}
	exit := 0
	found, _, err := checker.ExpandPluginArgs(dirs, false)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp types: %v\n", err)
		return 2
	}
	for _, dir := range found {
		p, err := checker.Load(checker.OSFS{}, dir)
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp types: %v\n", err)
			return 2
		}
		if check {
			if tstypes.Stale(p) {
				fmt.Fprintf(stdout, "%s: stale: run plugin-lsp types %s\n", line(filepath.Join(dir, filepath.FromSlash(tstypes.TypesPath))), line(dir))
				exit = 1
			}
			continue
		}
		wrote, err := tstypes.WriteFiles(p)
		for _, w := range wrote {
			fmt.Fprintf(stdout, "wrote %s\n", line(filepath.Join(dir, filepath.FromSlash(w))))
		}
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp types: %s: %v\n", dir, err)
			return 1
		}
		if len(wrote) == 0 {
			fmt.Fprintf(stdout, "%s is up to date\n", line(filepath.Join(dir, filepath.FromSlash(tstypes.TypesPath))))
		}
	}
	return exit
}

// typesToStdout prints the declarations `types` would write for one
// plugin, and writes nothing.
func typesToStdout(check bool, dirs []string, stdout, stderr io.Writer) int {
	if check || len(dirs) != 1 {
		fmt.Fprintf(stderr, "plugin-lsp types: --stdout takes one plugin directory and no --check\n\n%s", cmdSpec("types").usage())
		return 2
	}
	d := dirs[0]
	if fi, err := os.Stat(d); err == nil && !fi.IsDir() && filepath.Base(d) == checker.ManifestName {
		d = filepath.Dir(d)
	}
	if fi, err := os.Stat(filepath.Join(d, checker.ManifestName)); err != nil || !fi.Mode().IsRegular() {
		fmt.Fprintf(stderr, "plugin-lsp types: no plugin.json in %s\n", line(d))
		return 2
	}
	p, err := checker.Load(checker.OSFS{}, d)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp types: %v\n", err)
		return 2
	}
	if _, err := stdout.Write(tstypes.PluginTypes(p)); err != nil {
		return 1
	}
	return 0
}
