package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/report"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/explore"
)

// checkOptions are the parsed arguments of check and review.
type checkOptions struct {
	format          string
	builtins        string
	requireSnapshot bool
	fix, diff       bool
	noExplore       bool
	dirs            []string
}

// parseCheckArgs parses the arguments of check and review (cmd): the
// flags of the command's table entry, the first format the default.
func parseCheckArgs(cmd *command, args []string) (checkOptions, error) {
	var o checkOptions
	for _, f := range cmd.flags {
		if f.name == "format" {
			o.format = strings.Split(f.value, "|")[0]
		}
	}
	var err error
	o.dirs, err = cmd.parse(args, func(name, val string) error {
		switch name {
		case "fix":
			o.fix = true
		case "diff":
			o.diff = true
		case "require-snapshot":
			o.requireSnapshot = true
		case "no-explore":
			o.noExplore = true
		case "builtins":
			o.builtins = val
		case "format":
			formats := strings.Split(flagOf(cmd, "format").value, "|")
			ok := false
			for _, f := range formats {
				ok = ok || f == val
			}
			if !ok {
				return fmt.Errorf("unknown format %q (want %s)", val, strings.Join(formats, ", "))
			}
			o.format = val
		default:
			return noHandler(cmd.name, name)
		}
		return nil
	})
	return o, err
}

// loadConfig builds the check configuration: the embedded catalogue plus
// the names of a --builtins file.
func loadConfig(builtins string) (*checker.Config, error) {
	cfg := checker.DefaultConfig()
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
	spec := cmdSpec("check")
	o, err := parseCheckArgs(spec, args)
	if err == errHelp {
		fmt.Fprint(stdout, spec.usage())
		return 0
	}
	if err == nil && len(o.dirs) == 0 {
		err = fmt.Errorf("no plugin directory given")
	}
	if err == nil && o.fix && o.diff {
		err = fmt.Errorf("--fix and --diff exclude each other (--diff shows what --fix would do)")
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: %v\n\n%s", err, spec.usage())
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
	if !o.noExplore {
		// made at the first plugin with a function tool
		var once sync.Once
		var x *explore.Explorer
		defer func() {
			if x != nil {
				x.Close()
			}
		}()
		cfg.Explore = func(p *checker.Plugin) map[string]*checker.Exploration {
			if len(p.Manifest.Tools) == 0 {
				return nil
			}
			once.Do(func() {
				var err error
				if x, err = explore.New(explore.Options{}); err != nil {
					fmt.Fprintf(stderr, "plugin-lsp check: exploration is off: %v\n", err)
				}
			})
			if x == nil {
				return nil
			}
			return x.Plugin(context.Background(), p)
		}
	}
	// dirs are checked; fixDirs (the plugins the ordinary walk finds) may
	// be fixed: --require-snapshot checks node_modules and hidden
	// directories too, but --fix never writes into them.
	dirs, ordinary, err := checker.ExpandPluginArgs(o.dirs, o.requireSnapshot)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: %v\n", err)
		return 2
	}
	var fixDirs []string
	for _, d := range dirs {
		if ordinary[d] {
			fixDirs = append(fixDirs, d)
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
	results := checker.CheckAll(dirs, cfg, rules.All())
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stderr, "plugin-lsp check: %s: %s\n", line(r.Dir), line(r.Err))
			exit = 1
		}
		for _, d := range r.Diags {
			if d.Severity == checker.Error {
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
