package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/native"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/tooltest"
)

type testOptions struct {
	update   bool
	format   string
	run      *regexp.Regexp
	timeout  time.Duration
	parallel int
	dirs     []string
	native   bool
	node     string
}

func parseTestArgs(args []string) (testOptions, error) {
	o := testOptions{format: "text", timeout: tooltest.DefaultTimeout, parallel: runtime.GOMAXPROCS(0)}
	var err error
	spec := cmdSpec("test")
	o.dirs, err = spec.parse(args, func(name, val string) error {
		switch name {
		case "update":
			o.update = true
		case "format":
			formats := strings.Split(flagOf(spec, "format").value, "|")
			if !slices.Contains(formats, val) {
				return fmt.Errorf("unknown format %q (want %s)", val, strings.Join(formats, ", "))
			}
			o.format = val
		case "run":
			re, err := regexp.Compile(val)
			if err != nil {
				return fmt.Errorf("--run: %v", err)
			}
			o.run = re
		case "timeout":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return fmt.Errorf("--timeout %q is not a positive duration (e.g. 5s, 500ms)", val)
			}
			o.timeout = d
		case "trust-native":
			o.native = true
		case "node":
			o.node = val
		case "parallel":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return fmt.Errorf("--parallel %q is not a positive number", val)
			}
			o.parallel = n
		default:
			return noHandler(spec.name, name)
		}
		return nil
	})
	if err != nil {
		return o, err
	}
	if len(o.dirs) == 0 {
		return o, fmt.Errorf("no plugin directory given")
	}
	return o, nil
}

func cmdTest(args []string, stdout, stderr io.Writer) int {
	return testCommand(args, stdout, stderr, func(parallel int) (runner.ToolRunner, func(), error) {
		r, err := runner.New(runner.Config{Spare: -1, MaxConcurrent: parallel})
		if err != nil {
			return nil, nil, err
		}
		return r, r.Close, nil
	})
}

func testCommand(args []string, stdout, stderr io.Writer, newRunner func(parallel int) (runner.ToolRunner, func(), error)) int {
	o, err := parseTestArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, cmdSpec("test").usage())
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp test: %v\n\n%s", err, cmdSpec("test").usage())
		return 2
	}
	outputFormat(stdout, o.format)
	if o.native {
		if _, _, _, err := native.NodeVersion(context.Background(), o.node); err != nil {
			fmt.Fprintf(stderr, "plugin-lsp test: %s\n", line(err))
			return 2
		}
	}
	dirs, _, err := checker.ExpandPluginArgs(o.dirs, false)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp test: %v\n", err)
		return 2
	}
	var suites []*tooltest.Suite
	for _, f := range dirs {
		p, err := checker.Load(checker.OSFS{}, f)
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp test: %v\n", err)
			return 2
		}
		s, err := tooltest.LoadSuite(p)
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp test: %s: %s\n", line(f), line(err))
			return 1
		}
		suites = append(suites, s)
	}
	r, closeRunner, err := newRunner(o.parallel)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp test: %v\n", err)
		return 1
	}
	defer closeRunner()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	results, err := tooltest.Run(ctx, suites, tooltest.Options{Runner: r, Parallel: o.parallel, Filter: o.run, Timeout: o.timeout, Update: o.update,
		TrustNative: o.native, Node: o.node})
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp test: %v\n", err)
		return 1
	}
	sum := tooltest.Summarize(results)
	sum.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	cwd, _ := os.Getwd()
	if err := tooltest.Write(stdout, o.format, results, sum, cwd); err != nil {
		fmt.Fprintf(stderr, "plugin-lsp test: %v\n", err)
		return 1
	}
	if o.format != "text" { // the text output ends with it
		fmt.Fprintln(stderr, sum)
	}
	if len(results) == 0 {
		fmt.Fprintln(stderr, "plugin-lsp test: no test cases found (write tests/*.json; see docs/testing.md)")
	}
	if !sum.OK() {
		return 1
	}
	return 0
}
