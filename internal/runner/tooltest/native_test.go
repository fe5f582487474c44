package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/native"
)

const nativePlugin = `{"name": "kv", "version": "1.0.0", "sdk": 1,
  "nativeTools": [{"module": "native/kv.js", "names": ["kv.bump", "kv.dial"]}],
  "capabilities": {"credentials": [{"name": "token", "into": {"header": "Authorization", "format": "Bearer {{secret}}"}, "domains": ["api.x.org"]}]}}`

const nativeModule = `import net from "node:net";
export const tools = {
  "kv.bump": {
    description: "count up", inputJsonSchema: {type: "object", properties: {key: {type: "string"}}, required: ["key"]},
    requires: ["storage.kv", "collections.read", "secrets.read"],
    async execute(args, ctx) {
      const n = ((await ctx.storage.get(args.key)) ?? 0) + 1;
      await ctx.storage.set(args.key, n);
      ctx.log("bumped", args.key);
      const doc = await ctx.collections.get("notes", args.key);
      return { n, note: doc && doc.text, token: (await ctx.secrets.get("token")).length };
    },
  },
  "kv.dial": {
    description: "dial", inputJsonSchema: {type: "object"}, requires: ["network.socket"],
    async execute(args, ctx) {
      await new Promise((res, rej) => net.connect(6379, "127.0.0.1").on("error", rej).on("connect", res));
    },
  },
};
`

const nativeTests = `{"tool": "kv.bump", "cases": [
  {"name": "seeded", "input": {"key": "a"},
   "ctx": {"storage": {"a": 41}, "collections": {"notes": {"a": {"text": "hi"}}}, "secrets": {"token": "abcdef-123"}},
   "result": {"n": 42, "note": "hi", "token": 10}, "logs": [{"message": "bumped a"}], "connections": []},
  {"name": "fresh", "input": {"key": "b"}, "ctx": {"secrets": {"token": "xyz-token-1"}}, "result": {"n": 1, "note": null, "token": 11}},
  {"name": "wrong expectation", "input": {"key": "c"}, "ctx": {"secrets": {"token": "xyz-token-1"}}, "result": {"n": 2}},
  {"tool": "kv.dial", "name": "refused", "input": {}, "error": {"message": "refused the tcp connection"},
   "connections": [{"protocol": "tcp", "host": "127.0.0.1", "port": 6379, "refused": "fake-providers"}]},
  {"tool": "kv.dial", "name": "wrong connection", "input": {}, "error": {"message": "refused"},
   "connections": [{"protocol": "tls", "port": 6380}]}
]}`

// TestNativeCases: without TrustNative every native case is skipped with
// the reason (never passed); with it they run in the harness with their
// ctx seeds, and connections are compared like fetches.
func TestNativeCases(t *testing.T) {
	dir := writePlugin(t, map[string]string{"plugin.json": nativePlugin, "native/kv.js": nativeModule, "tests/kv.json": nativeTests})
	rs := runDir(t, dir, Options{})
	sum := Summarize(rs)
	if sum.Skipped != 5 || sum.Passed != 0 {
		t.Fatalf("without --trust-native: %+v", sum)
	}
	for _, r := range rs {
		if r.Status != testcase.Skip || !strings.Contains(r.Skipped, "--trust-native") || r.Record != nil {
			t.Errorf("%s: %s %q", r.ID(), r.Status, r.Skipped)
		}
	}
	var tap bytes.Buffer
	Write(&tap, "tap", rs, sum, "")
	if !strings.Contains(tap.String(), "# SKIP") {
		t.Errorf("TAP: %s", tap.String())
	}
	if _, _, _, err := native.NodeVersion(context.Background(), ""); err != nil {
		t.Skipf("no usable node: %v", err)
	}
	rs = runDir(t, dir, Options{TrustNative: true})
	got := byName(rs)
	for _, name := range []string{"seeded", "fresh", "refused"} {
		if got[name].Status != testcase.Pass {
			t.Errorf("%s: %s %v", name, got[name].Status, failureLines(got[name]))
		}
	}
	if r := got["wrong expectation"]; r.Status != testcase.Fail || !strings.Contains(strings.Join(failureLines(r), "\n"), "result.n") {
		t.Errorf("wrong expectation: %s %v", r.Status, failureLines(r))
	}
	if r := got["wrong connection"]; r.Status != testcase.Fail || !strings.Contains(strings.Join(failureLines(r), "\n"), "connections[0].protocol") ||
		!strings.Contains(strings.Join(failureLines(r), "\n"), "connections[0].port") {
		t.Errorf("wrong connection: %s %v", r.Status, failureLines(r))
	}
	for _, r := range rs {
		b, _ := json.Marshal(r.Record)
		if strings.Contains(string(b), "abcdef-123") || strings.Contains(string(b), "xyz-token-1") {
			t.Errorf("%s: the secret in the record", r.ID())
		}
	}
}

// TestNativeExampleSuites: the examples' suites pass with TrustNative
// (what .ci/run runs through plugin-lsp test --trust-native), and their
// native cases ran.
func TestNativeExampleSuites(t *testing.T) {
	if _, _, _, err := native.NodeVersion(context.Background(), ""); err != nil {
		t.Skipf("no usable node: %v", err)
	}
	for _, dir := range []string{"../../../testdata/example/redis", "../../../testdata/example/books"} {
		rs := runDir(t, dir, Options{TrustNative: true})
		sum := Summarize(rs)
		nativeRan := 0
		for _, r := range rs {
			if r.Record != nil && r.Record.Lane == "native" {
				nativeRan++
			}
		}
		if !sum.OK() || sum.Skipped != 0 || nativeRan < 3 {
			var b bytes.Buffer
			Write(&b, "text", rs, sum, "")
			t.Errorf("%s (%d native cases ran):\n%s", dir, nativeRan, b.String())
		}
	}
}
