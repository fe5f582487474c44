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
//	      lsp-null a request of the same path that runs nothing
//	               (workspace/executeCommand of a command the server does
//	               not have, answered with an error): the floor of a round
//	               trip over stdio
//	      lsp      the same run the way an editor asks for it:
//	               workspace/executeCommand plugin.runTool to a
//	               `plugin-lsp serve` child (the binary in PLUGIN_LSP_BIN)
//	               over stdio, timed from the request written to the
//	               response read (transport, decode, run, record, encode)
package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
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

// serverRunUs is the durationMs of the last plugin.runTool's record (the
// runner.Run inside the server), in µs; 0 in the other modes.
var serverRunUs float64

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
	var paced, b2b, pacedRun, b2bRun []float64
	for i := 0; i < calls; i++ {
		time.Sleep(5 * time.Millisecond)
		t0 := time.Now()
		if err := call(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		paced = append(paced, us(time.Since(t0)))
		pacedRun = append(pacedRun, serverRunUs)
	}
	c0 := cpu()
	for i := 0; i < calls; i++ {
		t0 := time.Now()
		if err := call(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		b2b = append(b2b, us(time.Since(t0)))
		b2bRun = append(b2bRun, serverRunUs)
	}
	c := cpu() - c0
	res := map[string]any{"mode": "ours-" + os.Args[1], "paced": paced, "b2b": b2b, "cpuUs": us(c) / float64(calls)}
	if os.Args[1] == "lsp" {
		// the run inside the server, call by call: the rest of each
		// call is the protocol path
		res["pacedServerRun"], res["b2bServerRun"] = pacedRun, b2bRun
	}
	out, _ := json.Marshal(res)
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
	case "lsp":
		return lspSetup(false)
	case "lsp-null":
		return lspSetup(true)
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

// lspSetup starts `plugin-lsp serve` with the repository as its workspace
// and returns a call that runs lookupBook through plugin.runTool.
func lspSetup(null bool) (func() error, func(), error) {
	bin := os.Getenv("PLUGIN_LSP_BIN")
	if bin == "" {
		return nil, nil, fmt.Errorf("PLUGIN_LSP_BIN names no plugin-lsp binary")
	}
	root, _ := os.Getwd()
	dir := filepath.Join(root, "testdata", "example", "books")
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+os.Getenv("PLUGIN_LSP_BENCH_CACHE")) // its compiled module cache
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	out := bufio.NewReader(outPipe)
	id := 0
	send := func(method string, params any, notify bool) error {
		m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if !notify {
			id++
			m["id"] = id
		}
		b, _ := json.Marshal(m)
		_, err := fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(b), b)
		return err
	}
	// read returns the response to request id, answering what the server
	// asks meanwhile (configuration, registrations) with null.
	read := func(want int) (json.RawMessage, error) {
		for {
			n := 0
			for {
				line, err := out.ReadString('\n')
				if err != nil {
					return nil, err
				}
				if line == "\r\n" {
					break
				}
				fmt.Sscanf(line, "Content-Length: %d", &n)
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(out, body); err != nil {
				return nil, err
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(body, &m); err != nil {
				return nil, err
			}
			if m.Method != "" && len(m.ID) > 0 { // a request of the server's
				b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
				fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(b), b)
				continue
			}
			if m.Method != "" {
				continue // a notification (diagnostics, progress)
			}
			if string(m.ID) == strconv.Itoa(want) {
				if len(m.Error) > 0 && string(m.Error) != "null" {
					return nil, fmt.Errorf("%s", m.Error)
				}
				return m.Result, nil
			}
		}
	}
	// The workspace is the plugin itself, as an author opens it (the
	// repository holds hundreds of test plugins the server would check
	// and explore in the background).
	uri := "file://" + dir
	if err := send("initialize", map[string]any{"processId": os.Getpid(), "rootUri": uri,
		"capabilities":     map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": uri, "name": "books"}}}, false); err != nil {
		return nil, nil, err
	}
	if _, err := read(id); err != nil {
		return nil, nil, err
	}
	if err := send("initialized", map[string]any{}, true); err != nil {
		return nil, nil, err
	}
	stop := func() {
		_ = send("shutdown", nil, false)
		_, _ = read(id)
		_ = send("exit", nil, true)
		in.Close()
		_ = cmd.Wait()
	}
	args := map[string]any{"dir": dir, "tool": "lookupBook", "input": json.RawMessage(`{"isbn":"978-0261103344"}`)}
	if null {
		// the same request path (framing, decode, dispatch, a handler,
		// an answer) for a command the server does not have: the floor
		// of a round trip over stdio
		return func() error {
			if err := send("workspace/executeCommand", map[string]any{"command": "plugin.noSuchCommand", "arguments": []any{args}}, false); err != nil {
				return err
			}
			if _, err := read(id); err == nil {
				return fmt.Errorf("plugin.noSuchCommand answered without an error")
			}
			return nil
		}, stop, nil
	}
	return func() error {
		if err := send("workspace/executeCommand", map[string]any{"command": "plugin.runTool", "arguments": []any{args}}, false); err != nil {
			return err
		}
		res, err := read(id)
		if err != nil {
			return err
		}
		var rec struct {
			OK         bool            `json:"ok"`
			Result     json.RawMessage `json:"result"`
			DurationMs float64         `json:"durationMs"`
		}
		if json.Unmarshal(res, &rec) != nil || !rec.OK {
			return fmt.Errorf("run failed: %.300s", res)
		}
		serverRunUs = rec.DurationMs * 1000
		return nil
	}, stop, nil
}
