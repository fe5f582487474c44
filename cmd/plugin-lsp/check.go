package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/report"
)

const checkUsage = `usage: plugin-lsp check [--format text|json|sarif] [--builtins FILE] [--require-snapshot] [--fix | --diff] DIR...

Checks every plugin at or below each DIR (a directory holding plugin.json,
a directory of plugins, or a plugin.json file). Exit status: 0 no errors,
1 errors found, 2 bad usage (unknown flag, a DIR without any plugin).
Rules and their codes: docs/rules.md.

  --format text   file:line:col: severity: message [code]   (the default;
                  1-based line and UTF-16 column), and "  fix: <title>"
                  under a diagnostic that has a fix
  --format json   [{plugin, file, range: {start: {line, character}, end},
                  severity (1 error, 2 warning, 3 info, 4 hint), code, message}]
                  LSP-shaped: 0-based lines, UTF-16 characters, file
                  relative to the plugin directory
  --format sarif  SARIF 2.1.0 for code-scanning services
  --builtins FILE a JSON array of tool names that extends the built-in catalogue
  --require-snapshot
                  a plugin without plugin.lock.json (plugin-lsp pin) is an
                  error, as is a reach wider than the snapshot (for CI);
                  every plugin.json under DIR is checked, including those
                  in hidden directories, node_modules and nested plugins
                  (without it those are skipped)
  --fix           apply every preferred, safe fix of an error or warning
                  (one that adds or renames: never one that removes a
                  capability or code), re-checking after each and keeping
                  it only when it brings no new error; print what changed,
                  then check the fixed plugins
  --diff          print the patch --fix would apply (unified diff, paths
                  as given on the command line) and change nothing
`

// checkOptions are the parsed arguments of check and review.
type checkOptions struct {
	format          string
	builtins        string
	requireSnapshot bool
	fix, diff       bool
	dirs            []string
}

// parseCheckArgs accepts flags before, between and after the directories
// ("--format json", "--format=json", "-format json"); "--" ends flags.
func parseCheckArgs(args []string, formats ...string) (checkOptions, error) {
	o := checkOptions{format: formats[0]}
	var err error
	o.dirs, err = scanArgs(args, []string{"require-snapshot", "fix", "diff"}, []string{"format", "builtins"}, func(name, val string) error {
		switch name {
		case "fix":
			o.fix = true
		case "diff":
			o.diff = true
		case "require-snapshot":
			o.requireSnapshot = true
		case "builtins":
			o.builtins = val
		case "format":
			ok := false
			for _, f := range formats {
				ok = ok || f == val
			}
			if !ok {
				return fmt.Errorf("unknown format %q (want %s)", val, strings.Join(formats, ", "))
			}
			o.format = val
		}
		return nil
	})
	return o, err
}

// loadConfig builds the check configuration: the embedded catalogue plus
// the names of a --builtins file.
func loadConfig(builtins string) (*analysis.Config, error) {
	cfg := analysis.DefaultConfig()
	if builtins == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(builtins)
	if err != nil {
		return nil, err
	}
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return nil, fmt.Errorf("%s: want a JSON array of tool names: %v", builtins, err)
	}
	cfg.Builtins = cfg.Builtins.Extend(names...)
	return cfg, nil
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	o, err := parseCheckArgs(args, "text", "json", "sarif")
	if err == errHelp {
		fmt.Fprint(stdout, checkUsage)
		return 0
	}
	if err == nil && len(o.dirs) == 0 {
		err = fmt.Errorf("no plugin directory given")
	}
	if err == nil && o.fix && o.diff {
		err = fmt.Errorf("--fix and --diff exclude each other (--diff shows what --fix would do)")
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: %v\n\n%s", err, checkUsage)
		return 2
	}
	if !o.diff {
		outputFormat(stdout, o.format)
	}
	cfg, err := loadConfig(o.builtins)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: --builtins: %v\n", err)
		return 2
	}
	cfg.RequireSnapshot = o.requireSnapshot
	// dirs are checked; fixDirs (the plugins the ordinary walk finds) may
	// be fixed: --require-snapshot checks node_modules and hidden
	// directories too, but --fix never writes into them.
	var dirs, fixDirs []string
	seen := map[string]bool{}
	for _, d := range o.dirs {
		if fi, err := os.Stat(d); err == nil && !fi.IsDir() && filepath.Base(d) == analysis.ManifestName {
			d = filepath.Dir(d) // a plugin.json named directly
		}
		found, err := analysis.FindPlugins(d)
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp check: %v\n", err)
			return 2
		}
		ordinary := map[string]bool{}
		for _, f := range found {
			ordinary[f] = true
		}
		if o.requireSnapshot {
			found, err = analysis.FindEveryPlugin(d) // the gate skips nothing
			if err != nil {
				fmt.Fprintf(stderr, "plugin-lsp check: %v\n", err)
				return 2
			}
		}
		if len(found) == 0 {
			fmt.Fprintf(stderr, "plugin-lsp check: no plugin.json at or below %s\n", d)
			return 2
		}
		for _, f := range found {
			abs, _ := filepath.Abs(f)
			if !seen[abs] { // the same plugin named twice is checked once
				seen[abs] = true
				dirs = append(dirs, f)
				if ordinary[f] {
					fixDirs = append(fixDirs, f)
				}
			}
		}
	}
	exit := 0
	if o.fix || o.diff {
		code, done := fixPlugins(fixDirs, cfg, o.diff, stdout, stderr)
		if done {
			return code
		}
		exit = code // a fix the writer refused
	}
	results := report.CheckAll(dirs, cfg)
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stderr, "plugin-lsp check: %s: %s\n", line(r.Dir), line(r.Err))
			exit = 1
		}
		for _, d := range r.Diags {
			if d.Severity == analysis.Error {
				exit = 1
			}
		}
	}
	switch o.format {
	case "json":
		err = report.WriteJSON(stdout, results)
	case "sarif":
		err = report.WriteSARIF(stdout, results, version)
	default:
		err = report.WriteText(stdout, results)
		if err == nil {
			fmt.Fprintln(stderr, report.Summary(results))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: %v\n", err)
		return 1
	}
	return exit
}
