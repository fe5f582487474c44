package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzRun: whatever the page, a run ends with a result or a classified
// error, within its deadline (plus slack), without Go detail, and the
// process survives. go test ./internal/runner/sandbox -run '^$' -fuzz FuzzRun -fuzztime 30s
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		`function main(x) { return x; }`,
		`function main() { for (;;) {} }`,
		`async function main() { await null; throw new Error("x"); }`,
		`function main() { const f = (n) => f(n + 1); return f(0); }`,
		`function main() { return new Promise(() => {}); }`,
		`function main() { setTimeout(() => { throw 1; }, 0); return new Promise(r => setTimeout(r, 5)); }`,
		`function main() { console.log({ toJSON() { throw 1; } }); return 1; }`,
		`function main() { return { toJSON() { return this; } }; }`,
		`function main() { Object.defineProperty(Promise.prototype, "then", { value: () => 1 }); return Promise.resolve(2); }`,
		`function main() { globalThis.__page = null; return 1; }`,
		`function main( {`,
		`})(); (function() {`,
		"function main() { return '\u2028\\u0000\\ud800'; }",
	} {
		f.Add(s)
	}
	e := engine(f)
	f.Fuzz(func(t *testing.T, src string) {
		const timeout = 200 * time.Millisecond
		start := time.Now()
		watchdog := time.AfterFunc(timeout+10*time.Second, func() {
			panic(fmt.Sprintf("run hangs past its deadline; page: %q", src))
		})
		defer watchdog.Stop()
		out := e.Run(context.Background(), Job{Name: "page.js", Code: page(src), Timeout: timeout})
		if d := time.Since(start); d > timeout+5*time.Second {
			t.Fatalf("run took %v with a %v deadline", d, timeout)
		}
		if out.OK {
			return
		}
		if out.Err == nil {
			t.Fatal("not OK and no error")
		}
		switch out.Err.Kind {
		case KindThrown, KindTimeout, KindMemory, KindStack, KindUnsettled, KindCompile:
		default:
			t.Fatalf("unexpected kind %+v", out.Err)
		}
		if strings.Contains(out.Err.Message+out.Err.Stack, ".go:") {
			t.Fatalf("Go detail: %+v", out.Err)
		}
	})
}
