package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/uri"
)

// floodRequests is how many requests the flooding client sends without
// reading an answer.
const floodRequests = 30000

// floodPeakRSSMiB is the ceiling on the server's peak resident set over
// the whole flood (VmHWM of the server process). Without backpressure the
// same flood took the server past 380 MiB; with it the peak measured
// 30-40 MiB (docs/limits.md, "Backpressure").
const floodPeakRSSMiB = 100

// TestFloodChild is the server of TestFloodBackpressure: this test binary
// run again with PLUGIN_LSP_FLOOD_CHILD set serves LSP on its stdin and
// stdout, logging to stderr, so that its resident set is its own.
func TestFloodChild(t *testing.T) {
	if os.Getenv("PLUGIN_LSP_FLOOD_CHILD") == "" {
		t.Skip("the server process of TestFloodBackpressure")
	}
	code := New(Options{Log: os.Stderr, Debounce: -1}).ServeStdio(context.Background(), os.Stdin, os.Stdout)
	os.Exit(code)
}

// TestFloodBackpressure: a client sends 30,000 requests (hover and
// documentSymbol on one open plugin.json) and reads nothing. The server
// must stop reading once its answers back up (it logs that it paused), so
// the client cannot even send them all; the server's peak RSS stays under
// floodPeakRSSMiB; once the client reads, every request gets exactly one
// answer (a superseded documentSymbol gets ServerCancelled) and a request
// sent after the flood is answered with a result.
func TestFloodBackpressure(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the server's peak RSS from /proc")
	}
	dir := copyExample(t)
	manifest := filepath.Join(dir, "plugin.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFloodChild$")
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_FLOOD_CHILD=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	// Only a guard against a hang (a deadlocked server): the reads below
	// fail once the process is gone.
	watchdog := time.AfterFunc(3*time.Minute, func() { _ = cmd.Process.Kill() })
	defer watchdog.Stop()
	paused := make(chan string, 1)
	logged := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if !sent && strings.Contains(line, "paused reading: the client reads no answers") {
				paused <- line
				sent = true
			}
			select {
			case logged <- line:
			default:
			}
		}
	}()
	in := bufio.NewWriter(stdin)
	send := func(v any) error {
		b, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
			return err
		}
		return in.Flush()
	}
	answers := newWireReader(stdout)
	u := string(uri.File(manifest))
	if err := send(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{}}}); err != nil {
		t.Fatal(err)
	}
	if m := answers.next(t); m.ID == nil || *m.ID != 0 {
		t.Fatalf("initialize: %+v", m)
	}
	_ = send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	_ = send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "json", "version": 1, "text": mustRead(t, manifest)}}})

	request := func(id int) map[string]any {
		doc := map[string]any{"uri": u}
		if id%2 == 0 {
			return map[string]any{"jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol", "params": map[string]any{"textDocument": doc}}
		}
		return map[string]any{"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": map[string]any{"textDocument": doc, "position": map[string]any{"line": 6, "character": 18}}}
	}
	wrote := make(chan int, 1)
	go func() {
		n := 0
		for id := 1; id <= floodRequests; id++ {
			if send(request(id)) != nil {
				break
			}
			n = id
		}
		wrote <- n
	}()
	sentAll := -1
	select {
	case line := <-paused:
		t.Logf("server: %s", line)
	case sentAll = <-wrote:
		// Measured all the same below, to say how far it went.
		t.Errorf("the server read all %d requests of a client that reads nothing: no backpressure", sentAll)
	}
	rssPaused, peakPaused := procMiB(t, cmd.Process.Pid)
	t.Logf("server before the client reads: VmRSS %.1f MiB, VmHWM %.1f MiB", rssPaused, peakPaused)

	// The client reads: every request is answered once, the server reads on.
	seen := make(map[int]bool, floodRequests)
	cancelled := 0
	for len(seen) < floodRequests {
		m := answers.next(t)
		if m.ID == nil || m.Method != "" {
			continue // a notification or a server request: not an answer
		}
		id := *m.ID
		if seen[id] || id < 1 || id > floodRequests {
			t.Fatalf("answer to id %d: unexpected or twice", id)
		}
		seen[id] = true
		switch {
		case m.Error != nil && m.Error.Code == -32802 && id%2 == 0:
			cancelled++
		case m.Error != nil:
			t.Fatalf("id %d: error %d %s", id, m.Error.Code, m.Error.Message)
		case len(m.Result) == 0 || string(m.Result) == "null":
			t.Fatalf("id %d: no result", id)
		}
	}
	if sentAll < 0 {
		sentAll = <-wrote
	}
	if n := sentAll; n != floodRequests {
		t.Fatalf("the client sent %d of %d requests", n, floodRequests)
	}
	if err := send(request(floodRequests + 2)); err != nil {
		t.Fatal(err)
	}
	for {
		m := answers.next(t)
		if m.ID != nil && m.Method == "" {
			if *m.ID != floodRequests+2 || m.Error != nil || len(m.Result) < 10 {
				t.Fatalf("after the flood: %+v", m)
			}
			break
		}
	}
	_, peak := procMiB(t, cmd.Process.Pid)
	t.Logf("server peak over the flood: VmHWM %.1f MiB; %d of %d documentSymbol requests superseded", peak, cancelled, floodRequests/2)
	if peak > floodPeakRSSMiB {
		t.Errorf("server peak RSS %.1f MiB over the flood, ceiling %d MiB", peak, floodPeakRSSMiB)
	}
	_ = send(map[string]any{"jsonrpc": "2.0", "id": floodRequests + 3, "method": "shutdown"})
	_ = send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	stdin.Close()
}

// procMiB reads a process's VmRSS and VmHWM (MiB) from /proc.
func procMiB(t *testing.T, pid int) (rss, peak float64) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		for key, dst := range map[string]*float64{"VmRSS:": &rss, "VmHWM:": &peak} {
			if v, ok := strings.CutPrefix(line, key); ok {
				kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
				*dst = float64(kb) / 1024
			}
		}
	}
	return rss, peak
}

// wireMessage is a JSON-RPC message as the flood client reads it.
type wireMessage struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// wireReader reads LSP frames (Content-Length header, body).
type wireReader struct{ r *bufio.Reader }

func newWireReader(r io.Reader) *wireReader { return &wireReader{bufio.NewReaderSize(r, 1<<16)} }

func (f *wireReader) next(t testing.TB) wireMessage {
	t.Helper()
	n := -1
	for {
		line, err := f.r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading a frame header: %v", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		t.Fatal("a frame without Content-Length")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(f.r, body); err != nil {
		t.Fatalf("reading a frame body: %v", err)
	}
	var m wireMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("frame %q: %v", body, err)
	}
	return m
}
