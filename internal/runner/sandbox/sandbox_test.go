package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"
)

var (
	engineOnce sync.Once
	testEngine *Engine
	engineErr  error
)

// engine is shared by the tests of this package (one compile per process).
func engine(t testing.TB) *Engine {
	t.Helper()
	engineOnce.Do(func() {
		testEngine, engineErr = NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE")})
	})
	if engineErr != nil {
		t.Fatal(engineErr)
	}
	return testEngine
}

// page wraps a function body as the default export of a script, the way
// the runner's compiler emits pages.
func page(src string) string {
	return "var __page = (() => { " + src + "\n; return { default: typeof main === 'function' ? main : undefined }; })();"
}

// run runs src's main with input. Its deadline only guards against a hang
// (a test of a deadline sets its own): a cap test that floods the log took
// over 5 s when four test binaries shared the 2-core machine.
func run(t testing.TB, src string, input string, methods ...Method) Outcome {
	t.Helper()
	job := Job{Name: "page.js", Code: page(src), Methods: methods, Timeout: time.Minute}
	if input != "" {
		job.Input = json.RawMessage(input)
	}
	return engine(t).Run(context.Background(), job)
}

func TestSmoke(t *testing.T) {
	out := run(t, `function main(x) { console.log("hi", x); return {n: x.n + 1}; }`, `{"n":1}`)
	if !out.OK || string(out.Result) != `{"n":2}` {
		t.Fatalf("got %+v %+v", out, out.Err)
	}
	if len(out.Logs) != 1 || out.Logs[0].Message != `hi {"n":1}` {
		t.Fatalf("logs %+v", out.Logs)
	}
	t.Logf("mem %d", out.MemoryPeakBytes)
}
