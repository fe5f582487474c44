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

// TestResultFastPathAgrees: a result is first written by JSON.stringify
// with a replacer that gives up on anything the full walk (jsonResult)
// might refuse; both must say the same of every result. The walk alone
// runs when the page gave BigInt a toJSON (stringify would apply it, the
// walk refuses BigInts), so each case runs once as it is and once with
// that hook, and the outcomes must be equal.
func TestResultFastPathAgrees(t *testing.T) {
	cases := []string{
		`return { type: "stat", value: "The Hobbit", label: "Title" };`,
		`return { a: [1, "x", true, null], b: { c: 1.5, d: -0 }, e: "\u2028 é \ud800" };`,
		`return { a: 1, b: undefined, c: [] , d: {} };`,
		`return { when: new Date(0), nested: [{ when: new Date(1e12) }] };`,
		`return { x: { toJSON(k) { return "key:" + k; } }, y: { toJSON() { return null; } }, z: { toJSON() { return undefined; } } };`,
		`class P { constructor() { this.x = 1; } m() {} } return [new P(), Object.create(null)];`,
		`return [new Number(1), new String("s"), new Boolean(false)];`,
		`return JSON.parse('{"__proto__": {"a": 1}, "1": 2, "b": null}');`,
		`return { u: new URL("https://a.example/x"), h: new Headers({ a: "1" }) };`,
		`let v = 1; for (let i = 0; i < 255; i++) v = [v]; return v;`,
		`let v = 1; for (let i = 0; i < 300; i++) v = { v }; return v;`,
		`let v = 1; for (let i = 0; i < 1200; i++) v = [v]; return v;`,
		`let v = 1; for (let i = 0; i < 5000; i++) v = { v }; return v;`,
		`const s = { x: 1 }; return [s, s, { s }];`,
		`return { rows: Array.from({ length: 30 }, (_, i) => ({ i, name: "n" + i, tags: ["a"], when: null })) };`,
		`return undefined;`,
		`return () => 1;`,
		`return [1, Symbol("s")];`,
		`return { items: [1, undefined] };`,
		`return [1, , 3];`,
		`return { ok: true, run() {} };`,
		`return { items: [{}, {}, {}, { when: new Map() }] };`,
		`return new Set([1]);`,
		`return { n: NaN, m: 1 };`,
		`return [-Infinity];`,
		`return { when: new Date("nope") };`,
		`return { get when() { return new Date("nope"); } };`,
		`return { get when() { return null; }, n: 1 };`,
		`const d = new Date(0); d.toJSON = () => null; return { d };`,
		`class T { #c = 2; get celsius() { return this.#c; } } return { t: new T() };`,
		`return { "a b": new Map() };`,
		`const a = { b: {} }; a.b.a = a; return a;`,
		`return { e: new Error("x") };`,
		`return new Uint8Array(2);`,
		`return Object.setPrototypeOf(new Uint8Array(2), Object.prototype);`,
		`return { p: Promise.resolve(1) };`,
		`return { r: /x/, w: new WeakMap() };`,
		`return [Object(Symbol("s"))];`,
		`return { x: { toJSON() { throw new RangeError("no"); } } };`,
		`return { p: new Proxy({}, { ownKeys() { return ["a"]; }, getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; }, get(t, k) { return k === "toJSON" ? undefined : () => 0; } }) };`,
		`return new Proxy([1, 2], {});`,
		`Object.prototype.toJSON = function () { return this instanceof Array ? this : { wrapped: true }; }; return { a: { b: 1 } };`,
		`return "just a string";`,
		`return null;`,
		`return 42;`,
	}
	norm := func(o Outcome) string {
		if o.Err != nil {
			return "error " + o.Err.Name + ": " + o.Err.Message + " @" + o.Err.Path
		}
		return string(o.Result)
	}
	for i, src := range cases {
		fast := run(t, "function main() { "+src+" }", "")
		walk := run(t, "function main() { BigInt.prototype.toJSON = function () { return 0; }; "+src+" }", "")
		if norm(fast) != norm(walk) {
			t.Errorf("case %d %s:\n  with the replacer: %s\n  walked:            %s", i, src, norm(fast), norm(walk))
		}
	}
}
