package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/native"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// runNative runs a native tool through the harness (--trust-native).
func runNative(o runOptions, p *checker.Plugin, tool string, input json.RawMessage, stdout, stderr io.Writer) int {
	if !o.trustNative {
		mod, _ := native.IsNativeTool(p.Manifest, tool)
		fmt.Fprintf(stderr, "plugin-lsp run: %q is a native tool (%s): it runs in Node.js with full authority on this machine, "+
			"not in the sandbox; pass --trust-native to run it through the plugin-lsp harness\n", tool, line(mod))
		return 2
	}
	if o.record {
		fmt.Fprintln(stderr, "plugin-lsp run: --record records brokered fetches; a native tool has none")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rec, err := native.Run(ctx, native.Request{
		Plugin: p, Tool: tool, Input: input, Providers: o.providers, Timeout: o.timeout,
		Node: o.node, FixturesPath: o.fixtures,
	})
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp run: %s\n", line(err))
		return 2
	}
	return printRecord(rec, stdout, stderr)
}

type runOptions struct {
	fixtures, input, providers string
	timeout                    time.Duration
	record, trustNative        bool
	node                       string
	pos                        []string
}

func parseRunArgs(args []string) (runOptions, error) {
	o := runOptions{providers: "fake", timeout: runner.DefaultTimeout}
	var err error
	spec := cmdSpec("run")
	o.pos, err = spec.parse(args, func(name, val string) error {
		switch name {
		case "record":
			o.record = true
		case "trust-native":
			o.trustNative = true
		case "node":
			o.node = val
		case "fixtures":
			o.fixtures = val
		case "input":
			o.input = val
		case "providers":
			if !slices.Contains(strings.Split(flagOf(spec, "providers").value, "|"), val) {
				return fmt.Errorf("--providers must be %s, not %q", strings.ReplaceAll(flagOf(spec, "providers").value, "|", " or "), val)
			}
			o.providers = val
		case "timeout":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return fmt.Errorf("--timeout %q is not a positive duration (e.g. 5s, 500ms)", val)
			}
			o.timeout = d
		default:
			return noHandler(spec.name, name)
		}
		return nil
	})
	if err != nil {
		return o, err
	}
	if len(o.pos) != 2 {
		return o, errors.New("want exactly DIR and TOOL")
	}
	if o.record && o.providers != "real" {
		return o, errors.New("--record records real responses: add --providers real")
	}
	return o, nil
}

// runnerFactory builds the runner; tests replace it to share one engine.
type runnerFactory func() (runner.ToolRunner, func(), error)

func defaultRunner() (runner.ToolRunner, func(), error) {
	r, err := runner.New(runner.Config{Spare: -1})
	if err != nil {
		return nil, nil, err
	}
	return r, r.Close, nil
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	return runCommand(args, stdout, stderr, defaultRunner)
}

func runCommand(args []string, stdout, stderr io.Writer, newRunner runnerFactory) int {
	return runCommandIO(args, os.Stdin, stdout, stderr, newRunner)
}

// maxInputBytes bounds --input read from a file or stdin.
const maxInputBytes = 16 << 20

func runCommandIO(args []string, stdin io.Reader, stdout, stderr io.Writer, newRunner runnerFactory) int {
	o, err := parseRunArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, cmdSpec("run").usage())
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp run: %v\n\n%s", err, cmdSpec("run").usage())
		return 2
	}
	outputFormat(stdout, "json") // the run record
	dir, tool := o.pos[0], o.pos[1]
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() && filepath.Base(dir) == checker.ManifestName {
		dir = filepath.Dir(dir)
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp run: %v\n", err)
		return 2
	}
	var input json.RawMessage
	if o.input != "" {
		raw := []byte(o.input)
		var src io.Reader
		switch {
		case o.input == "-":
			src = stdin
		case strings.HasPrefix(o.input, "@"):
			f, err := os.Open(o.input[1:])
			if err != nil {
				fmt.Fprintf(stderr, "plugin-lsp run: --input: %v\n", err)
				return 2
			}
			defer f.Close()
			src = f
		}
		if src != nil {
			if raw, err = io.ReadAll(io.LimitReader(src, maxInputBytes+1)); err != nil {
				fmt.Fprintf(stderr, "plugin-lsp run: --input: %v\n", err)
				return 2
			}
			if len(raw) > maxInputBytes {
				fmt.Fprintf(stderr, "plugin-lsp run: --input: more than %d bytes\n", maxInputBytes)
				return 2
			}
		}
		if !json.Valid(raw) {
			fmt.Fprintf(stderr, "plugin-lsp run: --input is not JSON: %s\n", checker.Clip(string(raw), 80))
			return 2
		}
		input = raw
	} else if _, isNative := native.IsNativeTool(p.Manifest, tool); !isNative {
		input = runner.DefaultInput(p, tool)
	}
	if _, isNative := native.IsNativeTool(p.Manifest, tool); isNative && p.Manifest.FunctionTool(tool) == nil {
		return runNative(o, p, tool, input, stdout, stderr)
	}
	r, closeRunner, err := newRunner()
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp run: %v\n", err)
		return 1
	}
	defer closeRunner()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	req := runner.Request{
		Plugin: p, Tool: tool, Input: input, FixturesPath: o.fixtures,
		Providers: o.providers, Timeout: o.timeout,
	}
	if strings.Contains(tool, "/") || strings.HasSuffix(tool, ".ts") || strings.HasSuffix(tool, ".js") {
		req.Tool, req.Page = "", tool // a page by its path
	}
	var rec *record.Record
	var recorded *runner.Recording
	if o.record {
		rec, recorded, err = runner.RunRecording(ctx, r, req, o.fixtures)
	} else {
		rec, err = r.Run(ctx, req)
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp run: %s\n", line(err))
		return 2
	}
	if recorded != nil {
		if recorded.Err != nil {
			fmt.Fprintf(stderr, "plugin-lsp run: --record: %s\n", line(recorded.Err))
			return 1
		}
		fmt.Fprintf(stderr, "recorded %d fixture(s) into %s", recorded.Added, line(recorded.Path))
		if recorded.Skipped > 0 {
			fmt.Fprintf(stderr, " (%d fetch(es) already had one)", recorded.Skipped)
		}
		fmt.Fprintln(stderr)
	}
	return printRecord(rec, stdout, stderr)
}

// printRecord writes a run's record as indented JSON; the exit code is 1
// when the run failed.
func printRecord(rec *record.Record, stdout, stderr io.Writer) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rec); err != nil {
		fmt.Fprintf(stderr, "plugin-lsp run: %v\n", err)
		return 1
	}
	if !rec.OK {
		return 1
	}
	return 0
}
