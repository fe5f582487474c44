package sandbox

import (
	"strings"
	"testing"
)

// TestResultIsJSON: a result is JSON or a ResultError naming the path of
// the first value JSON.stringify would drop, turn into null or {}.
func TestResultIsJSON(t *testing.T) {
	cases := []struct {
		name, src string
		result    string // exact JSON when OK
		path, msg string // ResultError otherwise
	}{
		{"plain", `return { a: [1, "x", true, null], b: { c: 1.5 } };`, `{"a":[1,"x",true,null],"b":{"c":1.5}}`, "", ""},
		{"undefined-property-is-absent", `return { a: 1, b: undefined };`, `{"a":1}`, "", ""},
		{"date-uses-toJSON", `return { when: new Date(0) };`, `{"when":"1970-01-01T00:00:00.000Z"}`, "", ""},
		{"toJSON-object", `return { x: { toJSON(k) { return "key:" + k; } } };`, `{"x":"key:x"}`, "", ""},
		{"class-with-own-fields", `class P { constructor() { this.x = 1; } m() {} } return new P();`, `{"x":1}`, "", ""},
		{"boxed-primitives", `return [new Number(1), new String("s"), new Boolean(false)];`, `[1,"s",false]`, "", ""},
		{"proto-key-kept", `return JSON.parse('{"__proto__": {"a": 1}}');`, `{"__proto__":{"a":1}}`, "", ""},
		{"url-object", `return { u: new URL("https://a.example/x") };`, `{"u":"https://a.example/x"}`, "", ""},
		{"deep-but-fine", `let v = 1; for (let i = 0; i < 500; i++) v = [v]; return v;`, strings.Repeat("[", 500) + "1" + strings.Repeat("]", 500), "", ""},
		{"undefined", `return undefined;`, "", "result", "result is undefined"},
		{"function", `return () => 1;`, "", "result", "result is a function"},
		{"symbol-in-array", `return [1, Symbol("s")];`, "", "result[1]", "a Symbol"},
		{"undefined-in-array", `return { items: [1, undefined] };`, "", "result.items[1]", "undefined"},
		{"function-property", `return { ok: true, run() {} };`, "", "result.run", "a function"},
		{"map", `return { items: [{}, {}, {}, { when: new Map() }] };`, "", "result.items[3].when", "a Map"},
		{"set", `return new Set([1]);`, "", "result", "a Set"},
		{"nan", `return { n: NaN };`, "", "result.n", "NaN"},
		{"infinity", `return [-Infinity];`, "", "result[0]", "-Infinity"},
		{"invalid-date", `return { when: new Date("nope") };`, "", "result.when", "an invalid Date"},
		{"class-getters", `class T { #c = 2; get celsius() { return this.#c; } } return { t: new T() };`, "", "result.t", "getters (celsius)"},
		{"odd-key", `return { "a b": new Map() };`, "", `result["a b"]`, "a Map"},
		{"bigint", `return { n: 1n };`, "", "result.n", "a BigInt"},
		{"cycle", `const a = { b: {} }; a.b.a = a; return a;`, "", "result.b.a", "circular"},
		{"shared-not-cycle", `const s = { x: 1 }; return [s, s];`, `[{"x":1},{"x":1}]`, "", ""},
		{"error-object", `return { e: new Error("x") };`, "", "result.e", "an Error"},
		{"typed-array", `return new Uint8Array(2);`, "", "result", "binary data"},
		{"promise-inside", `return { p: Promise.resolve(1) };`, "", "result.p", "a Promise"},
		{"too-deep", `let v = 1; for (let i = 0; i < 1500; i++) v = [v]; return v;`, "", "result[0][0]", "nested more than 1000 levels"},
		{"toJSON-throws", `return { x: { toJSON() { throw new RangeError("no"); } } };`, "", "", "no"},
		{"thenable-never-settles", `return { then() {} };`, "", "", "never settles"},
		{"proxy-getter", `return { p: new Proxy({}, { ownKeys() { return ["a"]; }, getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; }, get(t, k) { return k === "toJSON" ? undefined : () => 0; } }) };`, "", "result.p.a", "a function"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := run(t, "function main() { "+tc.src+" }", "")
			if tc.msg == "" {
				if !out.OK || string(out.Result) != tc.result {
					t.Fatalf("want %s, got OK=%v %s %+v", tc.result, out.OK, out.Result, out.Err)
				}
				return
			}
			if out.OK || out.Err == nil || !strings.Contains(out.Err.Message, tc.msg) || !strings.HasPrefix(out.Err.Path, tc.path) {
				t.Fatalf("want error at %q with %q, got OK=%v %s %+v", tc.path, tc.msg, out.OK, out.Result, out.Err)
			}
			if tc.path != "" && out.Err.Name != "ResultError" {
				t.Fatalf("name %q", out.Err.Name)
			}
		})
	}
}
