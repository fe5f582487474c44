package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

var (
	runnerOnce sync.Once
	testRunner *Runner
	runnerErr  error
)

// sharedRunner is one Runner for the package's tests (one engine per
// process; the compiled module cache lives in a temp dir).
func sharedRunner(t testing.TB) *Runner {
	t.Helper()
	runnerOnce.Do(func() {
		cache := os.Getenv("PLUGIN_LSP_TEST_CACHE")
		if cache == "" {
			cache = "-"
		}
		testRunner, runnerErr = New(Config{CacheDir: cache, Env: func(string) string { return "" }})
	})
	if runnerErr != nil {
		t.Fatal(runnerErr)
	}
	return testRunner
}

func books(t testing.TB) *checker.Plugin {
	t.Helper()
	p, err := checker.Load(checker.OSFS{}, filepath.Join("..", "..", "testdata", "example", "books"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func runTool(t testing.TB, p *checker.Plugin, tool, input string) *record.Record {
	t.Helper()
	req := Request{Plugin: p, Tool: tool, Timeout: 10 * time.Second}
	if input != "" {
		req.Input = json.RawMessage(input)
	}
	rec, err := sharedRunner(t).Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestBooksLookup(t *testing.T) {
	rec := runTool(t, books(t), "lookupBook", `{"isbn":"9780261103344"}`)
	if !rec.OK || string(rec.Result) != `{"type":"stat","value":"The Hobbit","label":"Title"}` {
		t.Fatalf("%s %+v", rec.Result, rec.Error)
	}
	if !strings.HasPrefix(rec.Claim, "fn.lookupBook:") || len(rec.Claim) != len("fn.lookupBook:")+12 {
		t.Errorf("claim %q", rec.Claim)
	}
	if len(rec.Logs) != 1 || rec.Logs[0].Message != "found The Hobbit" || rec.Logs[0].Level != "log" {
		t.Errorf("logs %+v", rec.Logs)
	}
	if len(rec.Fetches) != 1 {
		t.Fatalf("fetches %+v", rec.Fetches)
	}
	f := rec.Fetches[0]
	if f.Method != "GET" || f.URL != "https://api.openlibrary.org/isbn/9780261103344.json" || f.Status != 200 ||
		f.Source != "fixture" || len(f.Credentials) != 1 || f.Credentials[0] != "openlibrary_key" || f.Refused != "" {
		t.Errorf("fetch %+v", f)
	}
	if rec.Usage.FetchCount != 1 || rec.Usage.FetchCap != 64 || rec.Usage.MemoryCapBytes != 128<<20 ||
		rec.Usage.MemoryPeakBytes <= 0 || rec.Usage.TimeoutMs != 10000 {
		t.Errorf("usage %+v", rec.Usage)
	}
	assertNoSecret(t, rec, "dev-ol-4f9c2e7a1b")
}

func TestBooksSearchParallelCovers(t *testing.T) {
	rec := runTool(t, books(t), "searchBooks", `{"q":"hobbit"}`)
	want := `{"type":"table","columns":["Title","Author","Cover"],"rows":[["The Hobbit","J.R.R. Tolkien",200],["The Annotated Hobbit","J.R.R. Tolkien, Douglas A. Anderson",404]]}`
	if !rec.OK || string(rec.Result) != want {
		t.Fatalf("%s %+v", rec.Result, rec.Error)
	}
	if len(rec.Fetches) != 3 {
		t.Fatalf("fetches %+v", rec.Fetches)
	}
	statuses := map[string]int{}
	for _, f := range rec.Fetches {
		statuses[f.URL] = f.Status
	}
	if statuses["https://covers.openlibrary.org/b/id/8231856-S.json"] != 404 || statuses["https://covers.openlibrary.org/b/id/14627509-S.json"] != 200 {
		t.Errorf("statuses %v", statuses)
	}
	for _, f := range rec.Fetches[1:] {
		if len(f.Credentials) != 0 || f.MaxBytes != 4194304 || f.TimeoutMs != 5000 {
			t.Errorf("cover fetch %+v: credential out of scope or caps wrong", f)
		}
	}
	assertNoSecret(t, rec, "dev-ol-4f9c2e7a1b")
}

func TestBooksSaveFavourite(t *testing.T) {
	rec := runTool(t, books(t), "saveFavourite", `{"isbn":"9780261103344","note":"again"}`)
	if !rec.OK || string(rec.Result) != `{"type":"markdown","text":"Saved **9780261103344** (2×)"}` {
		t.Fatalf("%s %+v", rec.Result, rec.Error)
	}
	// each run starts from the fixtures again
	rec = runTool(t, books(t), "saveFavourite", `{"isbn":"9780261103344"}`)
	if !rec.OK || !strings.Contains(string(rec.Result), "(2×)") {
		t.Fatalf("%s %+v", rec.Result, rec.Error)
	}
	rec = runTool(t, books(t), "saveFavourite", `{"isbn":"1"}`)
	if !rec.OK || !strings.Contains(string(rec.Result), "(1×)") {
		t.Fatalf("%s %+v", rec.Result, rec.Error)
	}
}

func TestUnknownToolIsMisuse(t *testing.T) {
	_, err := sharedRunner(t).Run(context.Background(), Request{Plugin: books(t), Tool: "nope"})
	if err == nil || !strings.Contains(err.Error(), "lookupBook, searchBooks, saveFavourite") {
		t.Fatalf("err %v", err)
	}
}

// assertNoSecret fails when a secret value appears anywhere in the record.
func assertNoSecret(t testing.TB, rec *record.Record, secrets ...string) {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if strings.Contains(string(b), s) {
			t.Fatalf("secret %q leaked into the record: %s", s, b)
		}
	}
}

// TestConcurrentRuns: the LSP calls Run concurrently; each run has its own
// sandbox, broker and store, and they do not see each other.
func TestConcurrentRuns(t *testing.T) {
	p := books(t)
	type job struct{ tool, input, want string }
	jobs := []job{
		{"lookupBook", `{"isbn":"9780261103344"}`, `{"type":"stat","value":"The Hobbit","label":"Title"}`},
		{"saveFavourite", `{"isbn":"9780261103344"}`, `{"type":"markdown","text":"Saved **9780261103344** (2×)"}`},
		{"searchBooks", `{"q":"hobbit","limit":1}`, `{"type":"table","columns":["Title","Author","Cover"],"rows":[["The Hobbit","J.R.R. Tolkien",200]]}`},
	}
	var wg sync.WaitGroup
	errs := make(chan string, 30)
	for i := 0; i < 12; i++ {
		j := jobs[i%len(jobs)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec, err := sharedRunner(t).Run(context.Background(), Request{Plugin: p, Tool: j.tool, Input: json.RawMessage(j.input)})
			if err != nil {
				errs <- err.Error()
				return
			}
			if !rec.OK || string(rec.Result) != j.want {
				errs <- fmt.Sprintf("%s: %s %+v", j.tool, rec.Result, rec.Error)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestProgressAndDeadlineFromContext: progress messages arrive, and the
// caller's context ends a run like the deadline does.
func TestProgressAndDeadlineFromContext(t *testing.T) {
	var msgs []string
	var mu sync.Mutex
	rec, err := sharedRunner(t).Run(context.Background(), Request{Plugin: books(t), Tool: "lookupBook",
		Input:    json.RawMessage(`{"isbn":"9780261103344"}`),
		Progress: func(m string) { mu.Lock(); msgs = append(msgs, m); mu.Unlock() }})
	if err != nil || !rec.OK {
		t.Fatal(err, rec.Error)
	}
	got := strings.Join(msgs, "|")
	if !strings.HasPrefix(got, "compiling code/lookup-book.ts|running fn.lookupBook:") || !strings.Contains(got, "fetch https://api.openlibrary.org/isbn/9780261103344.json") || !strings.HasSuffix(got, "returned") {
		t.Errorf("progress %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := writePlugin(t, map[string]string{
		"plugin.json":  `{"name":"t","version":"1.0.0","tools":[{"name":"spin","page":"code/spin"}]}`,
		"code/spin.ts": "export default () => { for (;;) {} };\n",
	})
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	rec, err = sharedRunner(t).Run(ctx, Request{Plugin: p, Tool: "spin"})
	if err != nil || rec.OK || rec.Error.Name != "CanceledError" {
		t.Fatalf("%v %+v", err, rec.Error)
	}
}

func TestBrokenFixturesIsARecord(t *testing.T) {
	p := writePlugin(t, map[string]string{
		"plugin.json":   `{"name":"t","version":"1.0.0","tools":[{"name":"a","page":"code/a"}]}`,
		"code/a.ts":     "export default () => 1;\n",
		"fixtures.json": "{\n  \"fnFetch\": [ {\"url\": 1 ]\n}",
	})
	rec, err := sharedRunner(t).Run(context.Background(), Request{Plugin: p, Tool: "a"})
	if err != nil || rec.OK || rec.Error.Name != "FixturesError" || !strings.HasPrefix(rec.Error.Message, "fixtures.json:2:") {
		t.Fatalf("%v %+v", err, rec.Error)
	}
}
