package lsp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The soak of the language server (scripts/soak-lsp.sh): the built binary
// serves one plugin with 20 pages of 1 KB to 2 MB (log-spaced); every page
// is opened and edited PLUGIN_LSP_SOAK times in all (10,000 in the
// script), in bursts of 1 to 8 full-text changes to one page followed by a
// pull of its diagnostics (an editor waiting for the squiggles), then
// every page is closed. VmRSS is sampled every 50 ms. Ceilings: peak
// ≤ 150 MB, after close ≤ 1.3 × the RSS at start (after the first check).
const (
	soakPages     = 20
	soakMinBytes  = 1 << 10
	soakMaxBytes  = 2 << 20
	soakPeakLimit = 150 << 20
	soakCloseMult = 1.3
)

// soakPage returns a page of about size bytes: helpers an author would
// write, and a default export fetching from host.
func soakPage(i, size int, host string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// page %d: generated for the soak\nconst API = \"https://%s\";\n\n", i, host)
	for n := 0; b.Len() < size-400; n++ {
		fmt.Fprintf(&b, "function helper%d(x: string, n: number): string {\n  const parts = x.split(\",\").map((p) => p.trim());\n  return parts.slice(0, n).join(\"-\") + \"%d\";\n}\n\n", n, n)
	}
	fmt.Fprintf(&b, "export default async function tool%d(input: { q: string }) {\n  const res = await http.fetch(`${API}/search?q=${encodeURIComponent(input.q)}`);\n  if (!res.ok) throw new Error(`status ${res.status}`);\n  return { type: \"markdown\", text: await res.text() };\n}\n", i)
	return b.String()
}

func writeSoakPlugin(t testing.TB) (dir string, sizes []int) {
	dir = filepath.Join(t.TempDir(), "soak")
	if err := os.MkdirAll(filepath.Join(dir, "code"), 0o755); err != nil {
		t.Fatal(err)
	}
	var tools []string
	for i := 0; i < soakPages; i++ {
		size := int(float64(soakMinBytes) * math.Pow(float64(soakMaxBytes)/soakMinBytes, float64(i)/(soakPages-1)))
		sizes = append(sizes, size)
		if err := os.WriteFile(filepath.Join(dir, "code", fmt.Sprintf("p%d.ts", i)), []byte(soakPage(i, size, "api.example.org")), 0o644); err != nil {
			t.Fatal(err)
		}
		tools = append(tools, fmt.Sprintf(`{ "name": "tool%d", "page": "code/p%d", "description": "Soak tool %d", "inputJsonSchema": { "type": "object", "properties": { "q": { "type": "string" } } } }`, i, i, i))
	}
	m := "{\n  \"name\": \"soak\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n    " + strings.Join(tools, ",\n    ") +
		"\n  ],\n  \"capabilities\": { \"host\": [\"http.fetch\"], \"fetch\": [\"api.example.org\"] }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, sizes
}

func TestSoakEdits(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PLUGIN_LSP_SOAK"))
	if n <= 0 {
		t.Skip("set PLUGIN_LSP_SOAK=EDITS (scripts/soak-lsp.sh)")
	}
	bin := buildBinary(t)
	dir, sizes := writeSoakPlugin(t)
	pc := startBinary(t, bin, dir)
	defer pc.stop()
	pid := pc.cmd.Process.Pid

	var mu sync.Mutex
	var peak float64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			r := vmRSS(t, pid)
			mu.Lock()
			peak = max(peak, r)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	pull := func(path string) {
		_, err := pc.server.Diagnostic(pc.ctx, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)}})
		if err != nil {
			t.Fatalf("diagnostic %s: %v", path, err)
		}
	}
	manifest := filepath.Join(dir, "plugin.json")
	pull(manifest) // the first check is done: this is the start
	time.Sleep(2 * time.Second)
	start := vmRSS(t, pid)
	mu.Lock()
	firstPeak := peak
	mu.Unlock()
	t.Logf("soak: the first check of the plugin: RSS peak %.1f MB", firstPeak/(1<<20))

	paths := make([]string, soakPages)
	texts := make([]string, soakPages)
	versions := make([]int32, soakPages)
	for i := range paths {
		paths[i] = filepath.Join(dir, "code", fmt.Sprintf("p%d.ts", i))
		texts[i] = mustRead(t, paths[i])
		versions[i] = 1
		_ = pc.server.DidOpen(pc.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri.File(paths[i]), LanguageID: "typescript", Version: 1, Text: texts[i]}})
	}
	// PLUGIN_LSP_SOAK_FOR (a duration) stops the edits early on a machine
	// too slow or too loaded for all of them; the figures say how many
	// were made.
	budget, _ := time.ParseDuration(os.Getenv("PLUGIN_LSP_SOAK_FOR"))
	rng := rand.New(rand.NewPCG(1, 2))
	began := time.Now()
	done := 0
	for done < n {
		if budget > 0 && time.Since(began) > budget {
			t.Logf("soak: stopped after %d of %d edits: PLUGIN_LSP_SOAK_FOR=%v is up", done, n, budget)
			break
		}
		i := rng.IntN(soakPages)
		burst := min(1+rng.IntN(8), n-done)
		for k := 0; k < burst; k++ {
			done++
			host := "api.example.org"
			if done%3 == 0 {
				host = "undeclared.example.org" // the diagnostics change too
			}
			// Every edit is a new version: a new host or a new comment.
			text := strings.Replace(texts[i], "api.example.org", host, 1) + fmt.Sprintf("// edit %d\n", done)
			versions[i]++
			_ = pc.server.DidChange(pc.ctx, &protocol.DidChangeTextDocumentParams{
				TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(paths[i])}, Version: versions[i]},
				ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: text}},
			})
		}
		pull(paths[i])
		if done/1000 != (done-burst)/1000 {
			mu.Lock()
			pk := peak
			mu.Unlock()
			t.Logf("soak: %d edits, %v: RSS %.1f MB, peak so far %.1f MB", done, time.Since(began).Round(time.Second), vmRSS(t, pid)/(1<<20), pk/(1<<20))
		}
	}
	elapsed := time.Since(began)
	for i := range paths {
		_ = pc.server.DidClose(pc.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(paths[i])}})
	}
	pull(manifest) // the check after the close is done
	time.Sleep(2 * time.Second)
	after := vmRSS(t, pid)
	close(stop)
	<-sampled

	sort.Ints(sizes)
	mb := func(v float64) string { return fmt.Sprintf("%.1f MB", v/(1<<20)) }
	t.Logf("soak: %d edits over %d pages of %d B to %d B in %v", done, soakPages, sizes[0], sizes[len(sizes)-1], elapsed.Round(time.Second))
	t.Logf("soak: RSS start %s, peak %s, after close %s (%.2f× start)", mb(start), mb(peak), mb(after), after/start)
	if peak > soakPeakLimit {
		t.Errorf("peak RSS %s over the ceiling of %s", mb(peak), mb(soakPeakLimit))
	}
	if after > soakCloseMult*start {
		t.Errorf("RSS after close %s is over %.1f× the start (%s)", mb(after), soakCloseMult, mb(start))
	}
}
