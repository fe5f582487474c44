package lsp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// The figures of issue 5 (medians: go test -bench . -count 5 ./internal/lsp):
//   BenchmarkDidChangeToPublish/example     ≤ 10 ms beyond the debounce
//   BenchmarkDidChangeToPublish/1000-tools  ≤ 50 ms
//   BenchmarkStartToFirstDiagnostics        ≤ 150 ms (the built binary, default debounce)
//   BenchmarkIdleRSS                        ≤ 60 MB  (VmRSS of the binary)
// The debounce is set to 0 so that what is measured is the work itself.

// writeManyTools writes a plugin with n tools over 10 pages.
func writeManyTools(t testing.TB, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "many")
	if err := os.MkdirAll(filepath.Join(dir, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("{\n  \"name\": \"many\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n")
	for i := 0; i < n; i++ {
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    { \"name\": \"tool%d\", \"page\": \"code/page%d\", \"description\": \"Tool number %d\",\n      \"inputJsonSchema\": { \"type\": \"object\", \"properties\": { \"q\": { \"type\": \"string\" } } } }%s\n", i, i%10, i, sep)
	}
	b.WriteString("  ],\n  \"capabilities\": {\n    \"host\": [\"http.fetch\"],\n    \"fetch\": [\"api.example.org\"]\n  }\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		page := fmt.Sprintf("export default async function page%d(input: { q: string }) {\n  const res = await http.fetch(\"https://api.example.org/search?q=\" + encodeURIComponent(input.q));\n  return { type: \"markdown\", text: await res.text() };\n}\n", i)
		if err := os.WriteFile(filepath.Join(dir, "code", fmt.Sprintf("page%d.ts", i)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// benchChange measures didChange → publishDiagnostics: each iteration
// sends one of two texts whose diagnostics differ, so every change is
// published.
func benchChange(b *testing.B, dir, rel string, texts [2]string) {
	h := newHarness(b, Options{Debounce: -1})
	h.initialize(dir, protocol.ClientCapabilities{})
	path := filepath.Join(dir, rel)
	h.openText(path, texts[1])
	h.waitDiags(path, func(p *protocol.PublishDiagnosticsParams) bool { return true })
	h.waitChecked(dir)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := int32(i + 2)
		h.change(path, v, texts[i%2])
		h.waitDiags(path, func(p *protocol.PublishDiagnosticsParams) bool { got, _ := p.Version.Get(); return got == v })
	}
}

func BenchmarkDidChangeToPublish(b *testing.B) {
	b.Run("example", func(b *testing.B) {
		dir := copyExample(b)
		page := mustRead(b, filepath.Join(dir, "code", "lookup-book.ts"))
		a := strings.Replace(page, "https://api.openlibrary.org", "https://books.example.org", 1)
		c := strings.Replace(page, "https://api.openlibrary.org", "https://books2.example.org", 1)
		benchChange(b, dir, "code/lookup-book.ts", [2]string{a, c})
	})
	b.Run("1000-tools", func(b *testing.B) {
		dir := writeManyTools(b, 1000)
		m := mustRead(b, filepath.Join(dir, "plugin.json"))
		a := strings.Replace(m, `"fetch": ["api.example.org"]`, `"fetch": ["api.example.org", "x1.example.org"]`, 1)
		c := strings.Replace(m, `"fetch": ["api.example.org"]`, `"fetch": ["api.example.org", "x2.example.org"]`, 1)
		benchChange(b, dir, "plugin.json", [2]string{a, c})
	})
}

// buildBinary builds cmd/plugin-lsp once per benchmark.
func buildBinary(b testing.TB) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "plugin-lsp")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/plugin-lsp")
	cmd.Dir = "../.." // the module root
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// procClient runs the binary and talks to it over its stdio.
type procClient struct {
	cmd    *exec.Cmd
	conn   jsonrpc2.Conn
	server protocol.Server
	ctx    context.Context
	client *testClient
}

type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

func startBinary(b testing.TB, bin, root string) *procClient {
	b.Helper()
	cmd := exec.Command(bin, "serve") // default debounce: the first check does not wait for it
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if log := os.Getenv("PLUGIN_LSP_SERVER_LOG"); log != "" {
		// The server's stderr (its log; GODEBUG=gctrace=1 output) to a file.
		f, err := os.Create(log)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		cmd.Stderr = f
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	pc := &procClient{cmd: cmd, client: newTestClient()}
	pc.ctx, pc.conn, pc.server = newClientConn(context.Background(), pc.client, jsonrpc2.NewStream(pipeRWC{bufio.NewReader(stdout), stdin}))
	_, err := pc.server.Initialize(pc.ctx, &protocol.InitializeParams{
		WorkspaceFoldersInitializeParams: protocol.WorkspaceFoldersInitializeParams{WorkspaceFolders: protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "root"}})},
	})
	if err != nil {
		b.Fatal(err)
	}
	_ = pc.server.Initialized(pc.ctx, &protocol.InitializedParams{})
	return pc
}

func (pc *procClient) stop() {
	_ = pc.server.Shutdown(pc.ctx)
	_ = pc.server.Exit(pc.ctx)
	done := make(chan struct{})
	go func() { _ = pc.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = pc.cmd.Process.Kill()
	}
	pc.conn.Close()
}

func (pc *procClient) waitAny(b testing.TB, u string) {
	deadline := time.After(10 * time.Second)
	for {
		pc.client.mu.Lock()
		_, ok := pc.client.diags[u]
		pc.client.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-pc.client.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			b.Fatal("no diagnostics")
		}
	}
}

// BenchmarkStartToFirstDiagnostics: process start → initialize → didOpen →
// the first publishDiagnostics, for the example plugin.
func BenchmarkStartToFirstDiagnostics(b *testing.B) {
	bin := buildBinary(b)
	dir := copyExample(b)
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(b, manifest)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pc := startBinary(b, bin, dir)
		_ = pc.server.DidOpen(pc.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri.File(manifest), LanguageID: "json", Version: 1, Text: text}})
		pc.waitAny(b, string(uri.File(manifest)))
		b.StopTimer()
		pc.stop()
		b.StartTimer()
	}
}

// BenchmarkIdleRSS reports the resident memory of the binary serving a
// workspace with a 100-tool plugin once it is idle: its check and the
// exploration that follows it done, the process using no CPU for a
// second (MB-RSS); and the most it held on the way (MB-peak, VmHWM:
// the check, then 100 tools explored).
func BenchmarkIdleRSS(b *testing.B) {
	bin := buildBinary(b)
	dir := writeManyTools(b, 100)
	manifest := filepath.Join(dir, "plugin.json")
	var total, peak float64
	for i := 0; i < b.N; i++ {
		pc := startBinary(b, bin, dir)
		_ = pc.server.DidOpen(pc.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri.File(manifest), LanguageID: "json", Version: 1, Text: mustRead(b, manifest)}})
		pc.waitAny(b, string(uri.File(manifest)))
		// the same requests an editor makes when it shows the file
		_, _ = pc.server.CodeLens(pc.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}})
		_, _ = pc.server.DocumentSymbol(pc.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}})
		pid := pc.cmd.Process.Pid
		waitIdle(b, pid)
		total += procStatus(b, pid, "VmRSS:")
		peak += procStatus(b, pid, "VmHWM:")
		pc.stop()
	}
	b.ReportMetric(total/float64(b.N)/(1<<20), "MB-RSS")
	b.ReportMetric(peak/float64(b.N)/(1<<20), "MB-peak")
}

// waitIdle waits until process pid has used no CPU time for a second
// (its clock ticks, /proc/pid/stat), at most two minutes.
func waitIdle(b testing.TB, pid int) {
	last, still := cpuTicks(b, pid), 0
	for range 480 {
		time.Sleep(250 * time.Millisecond)
		now := cpuTicks(b, pid)
		if now == last {
			if still++; still == 4 {
				return
			}
			continue
		}
		last, still = now, 0
	}
	b.Fatal("the server did not go idle within two minutes")
}

// cpuTicks is the user and system time of process pid, in clock ticks.
func cpuTicks(b testing.TB, pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// after the command name in parentheses: state is field 3, utime 14, stime 15
	_, rest, _ := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		b.Fatalf("short /proc/%d/stat", pid)
	}
	return f[11] + " " + f[12]
}

// vmRSS reads VmRSS (bytes) from /proc.
func vmRSS(b testing.TB, pid int) float64 { return procStatus(b, pid, "VmRSS:") }

// procStatus reads a size field of /proc/pid/status (bytes).
func procStatus(b testing.TB, pid int, field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, field) {
			f := strings.Fields(line)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb * 1024
		}
	}
	b.Fatalf("no %s", field)
	return 0
}

// BenchmarkLargeManifest: a 25 MB plugin.json (150,000 tools). "first" is
// initialize → didOpen → the first publishDiagnostics; "edit" is a ranged
// didChange of it handled (over MaxLiveManifestBytes edits wait for the
// save, so this is what typing costs). Targets: first ≤ 3 s, edit ≤ 500 ms.
func BenchmarkLargeManifest(b *testing.B) {
	dir := writeManyTools(b, 150000)
	manifest := filepath.Join(dir, "plugin.json")
	text := mustRead(b, manifest)
	b.Run("first", func(b *testing.B) {
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			h := newHarness(b, Options{})
			h.initialize(dir, protocol.ClientCapabilities{})
			h.openText(manifest, text)
			h.waitDiagsWithin(5*time.Minute, manifest, func(p *protocol.PublishDiagnosticsParams) bool { return true })
		}
		// The CPU time of the process (server and test client) says what
		// a loaded machine's wall time does not.
		b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run("edit", func(b *testing.B) {
		h := newHarness(b, Options{})
		h.initialize(dir, protocol.ClientCapabilities{})
		h.openText(manifest, text)
		h.waitDiagsWithin(5*time.Minute, manifest, func(p *protocol.PublishDiagnosticsParams) bool { return true })
		at := encUTF16.toPosition(checker.NewFile("", []byte(text)), strings.Index(text, `"api.example.org"`)+1)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			err := h.server.DidChange(h.ctx, &protocol.DidChangeTextDocumentParams{
				TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}, Version: int32(i + 2)},
				ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: at, End: at}, Text: "x"}},
			})
			if err != nil {
				b.Fatal(err)
			}
			h.sync()
		}
	})
}
