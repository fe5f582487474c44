package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/tstypes"
)

const typesUsage = `usage: plugin-lsp types [--check | --stdout] DIR...

Writes DIR/.plugin/types.d.ts for every plugin at or below each DIR: the
host API the plugin is granted (http.fetch, collections.*), console, the
timers and web globals of the sandbox, and Input<"toolName"> from each
tool's inputJsonSchema. Writes DIR/tsconfig.json too when there is none,
so that editors and tsc --noEmit type-check the pages against it.

  --check   write nothing; exit 1 when a types.d.ts is missing or stale
  --stdout  write nothing; print the types.d.ts of the one plugin DIR holds
            (the VS Code extension's TypeScript server plugin reads it)
`

func cmdTypes(args []string, stdout, stderr io.Writer) int {
	check, toStdout := false, false
	var dirs []string
	for _, a := range args {
		switch {
		case a == "--check" || a == "-check":
			check = true
		case a == "--stdout" || a == "-stdout":
			toStdout = true
		case a == "-h" || a == "--help" || a == "-help":
			fmt.Fprint(stdout, typesUsage)
			return 0
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "plugin-lsp types: unknown flag %s\n\n%s", a, typesUsage)
			return 2
		default:
			dirs = append(dirs, a)
		}
	}
	if len(dirs) == 0 {
		fmt.Fprintf(stderr, "plugin-lsp types: no plugin directory given\n\n%s", typesUsage)
		return 2
	}
	if toStdout {
		return typesToStdout(check, dirs, stdout, stderr)
	}
	exit := 0
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && !fi.IsDir() && filepath.Base(d) == analysis.ManifestName {
			d = filepath.Dir(d)
		}
		found, err := analysis.FindPlugins(d)
		if err != nil || len(found) == 0 {
			if err == nil {
				err = fmt.Errorf("no plugin.json at or below %s", d)
			}
			fmt.Fprintf(stderr, "plugin-lsp types: %v\n", err)
			return 2
		}
		for _, dir := range found {
			p, err := analysis.Load(analysis.OSFS{}, dir)
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
				fmt.Fprintf(stderr, "plugin-lsp types: %v\n", err)
				return 1
			}
			if len(wrote) == 0 {
				fmt.Fprintf(stdout, "%s is up to date\n", filepath.Join(dir, filepath.FromSlash(tstypes.TypesPath)))
			}
		}
	}
	return exit
}

// typesToStdout prints the declarations `types` would write for one
// plugin, and writes nothing.
func typesToStdout(check bool, dirs []string, stdout, stderr io.Writer) int {
	if check || len(dirs) != 1 {
		fmt.Fprintf(stderr, "plugin-lsp types: --stdout takes one plugin directory and no --check\n\n%s", typesUsage)
		return 2
	}
	d := dirs[0]
	if fi, err := os.Stat(d); err == nil && !fi.IsDir() && filepath.Base(d) == analysis.ManifestName {
		d = filepath.Dir(d)
	}
	if fi, err := os.Stat(filepath.Join(d, analysis.ManifestName)); err != nil || !fi.Mode().IsRegular() {
		fmt.Fprintf(stderr, "plugin-lsp types: no plugin.json in %s\n", line(d))
		return 2
	}
	p, err := analysis.Load(analysis.OSFS{}, d)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp types: %v\n", err)
		return 2
	}
	if _, err := stdout.Write(tstypes.PluginTypes(p)); err != nil {
		return 1
	}
	return 0
}
