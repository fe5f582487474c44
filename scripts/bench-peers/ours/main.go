// Command ours is our side of scripts/bench-peers.sh: the same small tool
// as peers.mjs, run in a fresh sandbox per call, printing the same JSON
// line (per-call µs of paced and back-to-back calls, CPU µs per
// back-to-back call).
//
//	go run ./scripts/bench-peers/ours MODE CALLS
//	MODE: sandbox  the sandbox layer alone (sandbox.Engine.Run), the tool's
//	               JavaScript as in peers.mjs, the fetch answered by a Go
//	               host method with the canned body: like for like with
//	               the peers
//	      runner   the whole runner.Run of the example plugin's lookupBook
//	               (fixtures read, broker, redaction, record): what
//	               `plugin-lsp run` and the language server pay
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// toolSource is the tool, shared with peers.mjs.
//
//go:embed tool.js
var toolSource string

const want = `{"type":"stat","value":"The Hobbit","label":"Title"}`

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: ours sandbox|runner CALLS")
		os.Exit(2)
	}
	calls, _ := strconv.Atoi(os.Args[2])
	call, closeFn, err := setup(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer closeFn()
	for i := 0; i < 20; i++ {
		if err := call(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	var paced, b2b []float64
	for i := 0; i < calls; i++ {
		time.Sleep(5 * time.Millisecond)
		t0 := time.Now()
		if err := call(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		paced = append(paced, us(time.Since(t0)))
	}
	c0 := cpu()
	for i := 0; i < calls; i++ {
		t0 := time.Now()
		if err := call(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		b2b = append(b2b, us(time.Since(t0)))
	}
	c := cpu() - c0
	out, _ := json.Marshal(map[string]any{"mode": "ours-" + os.Args[1], "paced": paced, "b2b": b2b, "cpuUs": us(c) / float64(calls)})
	fmt.Println(string(out))
}

func setup(mode string) (func() error, func(), error) {
	cache := os.Getenv("PLUGIN_LSP_BENCH_CACHE")
	switch mode {
	case "sandbox":
		e, err := sandbox.NewEngine(sandbox.Options{CacheDir: cache, Spare: 4})
		if err != nil {
			return nil, nil, err
		}
		fetch := sandbox.Method{Name: "http.fetch", Async: true, Fn: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
			var url string
			if len(args) == 0 || json.Unmarshal(args[0], &url) != nil || url != "https://api.openlibrary.org/isbn/9780261103344.json" {
				return json.RawMessage(`{"status":404,"headers":{},"body":""}`), nil
			}
			return json.RawMessage(`{"status":200,"headers":{"content-type":"application/json"},"body":"{\"title\":\"The Hobbit\",\"number_of_pages\":310}"}`), nil
		}}
		job := sandbox.Job{Name: "page.js", Code: "var __page = (() => {" + toolSource + "\nreturn { default: lookupBook }; })();",
			Input: json.RawMessage(`{"isbn":"978-0261103344"}`), Methods: []sandbox.Method{fetch}}
		return func() error {
			out := e.Run(context.Background(), job)
			if !out.OK || string(out.Result) != want || len(out.Logs) != 1 {
				return fmt.Errorf("wrong outcome: %s %+v", out.Result, out.Err)
			}
			return nil
		}, e.Close, nil
	case "runner":
		r, err := runner.New(runner.Config{CacheDir: cache, Env: func(string) string { return "" }})
		if err != nil {
			return nil, nil, err
		}
		dir, _ := os.Getwd()
		p, err := checker.Load(checker.OSFS{}, filepath.Join(dir, "testdata", "example", "books"))
		if err != nil {
			return nil, nil, err
		}
		req := runner.Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"978-0261103344"}`)}
		return func() error {
			rec, err := r.Run(context.Background(), req)
			if err != nil || !rec.OK {
				return fmt.Errorf("run failed: %v %+v", err, rec.Error)
			}
			return nil
		}, r.Close, nil
	}
	return nil, nil, fmt.Errorf("unknown mode %q", mode)
}
