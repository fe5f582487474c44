package tstypes

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// parseSchema reads schema text the way the manifest loader does
// (jsonpos, then SchemaValue).
func parseSchema(t testing.TB, text string) any {
	t.Helper()
	n, err := jsonpos.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return SchemaValue(n)
}

func outputSize(typ string, decls []string) int {
	n := len(typ)
	for _, d := range decls {
		n += len(d) + 1
	}
	return n
}

// Every hostile schema converts to text linear in its size (at most four
// bytes of TypeScript per byte of schema, plus 16 KiB for indentation up
// to MaxDepth), allocates a bounded amount, and says why it gave up where
// it did.
func TestAdversarialSchemasAreBounded(t *testing.T) {
	wantCut := map[string]string{
		"nested-properties-4900": cutDepth,
		"nested-items-9000":      cutDepth,
		"nested-anyOf-4000":      cutDepth,
		"nested-const-9000":      cutDepth,
		"ref-cycles":             cutCycle,
		"numbers":                "is no exact double */",
	}
	for _, a := range adversaries() {
		t.Run(a.name, func(t *testing.T) {
			schema := parseSchema(t, a.schema)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			typ, decls := Convert(schema, "Input")
			runtime.ReadMemStats(&after)
			size := outputSize(typ, decls)
			if limit := 4*len(a.schema) + 16<<10; size > limit {
				t.Errorf("%d bytes of TypeScript from %d bytes of schema (limit %d)", size, len(a.schema), limit)
			}
			// Allocation: a constant times the schema (the memo, the
			// strings built level by level), not its exponential.
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d B schema, %d B out, %d KiB allocated", len(a.schema), size, alloc>>10)
			if limit := uint64(200*len(a.schema) + (8 << 20)); alloc > limit {
				t.Errorf("allocated %d MiB for a %d-byte schema (limit %d MiB)", alloc>>20, len(a.schema), limit>>20)
			}
			if w, ok := wantCut[a.name]; ok && !strings.Contains(typ+strings.Join(decls, "\n"), w) {
				t.Errorf("no %q in the output", w)
			}
		})
	}
}

// The schema, as deep as it gets: the text grows by a constant per
// level, not by a factor.
func TestAnyOfTowerGrowsLinearly(t *testing.T) {
	level := func(in string) string {
		return `{"type":"object","properties":{"x":` + in + `,"y":{"type":"string"}},"anyOf":[{"required":["x"]},{"required":["y"]},{}]}`
	}
	size := func(n int) int {
		typ, decls := Convert(parseSchema(t, tower(n, `{"type":"string"}`, level)), "Input")
		return outputSize(typ, decls)
	}
	s10, s20, s40 := size(10), size(20), size(40)
	// Linear: the step from 20 to 40 levels is at most about twice the step
	// from 10 to 20 (indentation adds a little per level); doubling per
	// level would make it a million times larger.
	if d1, d2 := s20-s10, s40-s20; d2 > 3*d1 {
		t.Errorf("sizes at 10, 20, 40 levels: %d, %d, %d: not linear", s10, s20, s40)
	}
}

// The budget: past MaxNodes schemas or MaxOutput bytes the remaining
// properties are left out (a comment says how many, an index signature
// admits them), and a type reached past it is unknown with a comment.
func TestNodeAndOutputBudgets(t *testing.T) {
	var props []string
	for i := range MaxNodes + 10 {
		props = append(props, fmt.Sprintf(`"p%d":{}`, i))
	}
	typ, _ := Convert(parseSchema(t, `{"properties":{`+strings.Join(props, ",")+`}}`), "X")
	// The root is one schema, so MaxNodes-1 properties fit.
	if !strings.Contains(typ, "/* plugin-lsp: 11 more properties left out") || !strings.Contains(typ, "[key: string]: unknown;") ||
		strings.Count(typ, "?: unknown;") != MaxNodes-1 {
		t.Errorf("node budget: %d properties written, %q", strings.Count(typ, "?: unknown;"), typ[len(typ)-200:])
	}

	long := strings.Repeat("d", 64<<10)
	props = props[:0]
	for i := range 100 {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"array","items":{"enum":["%s"]}}`, i, long))
	}
	typ, _ = Convert(parseSchema(t, `{"properties":{"a":{"properties":{`+strings.Join(props, ",")+`}},"b":{"const":"x"}}}`), "X")
	if !strings.Contains(typ, "more properties left out") || len(typ) > MaxOutput+(128<<10) {
		t.Errorf("output budget not applied: %d bytes", len(typ))
	}
	// b comes after the budget is spent: its type says why it is unknown.
	if !strings.Contains(typ, "b?: "+cutOutput) && !strings.Contains(typ, "1 more properties left out") {
		t.Errorf("b is neither cut nor left out:\n%s", typ[len(typ)-300:])
	}
}

// 100,000 levels of nesting, beyond what the JSON reader accepts (10,000):
// the manifest is a syntax error, and the generator, given such a value
// anyway, stops at MaxDepth.
func TestDeepNesting100k(t *testing.T) {
	deep := strings.Repeat(`{"items":`, 100000) + `{}` + strings.Repeat("}", 100000)
	if _, err := jsonpos.Parse([]byte(deep)); err == nil {
		t.Fatal("the JSON reader accepted 100,000 levels")
	}
	var s any = map[string]any{"type": "string"}
	for i := range 100000 {
		if i%2 == 0 {
			s = map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
		} else {
			s = map[string]any{"properties": map[string]any{"a": s}}
		}
	}
	typ, decls := Convert(s, "X")
	if !strings.Contains(typ, cutDepth) || outputSize(typ, decls) > 16<<10 {
		t.Errorf("depth not bounded: %d bytes", outputSize(typ, decls))
	}
}

// Each JSON number: the literal TypeScript reads as exactly that number,
// or number with a comment.
func TestNumberLiterals(t *testing.T) {
	for raw, want := range map[string]string{
		"0": "0", "-0": "0", "-0.0e-5": "0", "0e99999999999999999999": "0",
		"1": "1", "-12": "-12", "1.0": "1", "1E+5": "100000", "1e5": "100000", "12.50": "12.5", "-12.5e-3": "-0.0125",
		"0.1": "0.1", "1e21": "1e+21", "1e-7": "1e-7", "1.5e300": "1.5e+300", "5e-324": "5e-324",
		"9007199254740992":    "9007199254740992",
		"1152921504606846976": "1152921504606846976", // 2^60: exact, but not what JavaScript prints
		"0.1000000000000000055511151231257827021181583404541015625": "1.000000000000000055511151231257827021181583404541015625e-1",
		"1e400":                    "number /* plugin-lsp: 1e400 is no exact double */",
		"-1e400":                   "number /* plugin-lsp: -1e400 is no exact double */",
		"0.1e-400":                 "number /* plugin-lsp: 0.1e-400 is no exact double */",
		"9007199254740993":         "number /* plugin-lsp: 9007199254740993 is no exact double */",
		"12345678901234567890123":  "number /* plugin-lsp: 12345678901234567890123 is no exact double */",
		"0.1000000000000000000001": "number /* plugin-lsp: 0.1000000000000000000001 is no exact double */",
		"1e999999999999999999999":  "number /* plugin-lsp: 1e999999999999999999999 is no exact double */",
		"01":                       "number /* plugin-lsp: not a JSON number */", "1.": "number /* plugin-lsp: not a JSON number */",
		"+1": "number /* plugin-lsp: not a JSON number */", "1e": "number /* plugin-lsp: not a JSON number */",
		"0x10": "number /* plugin-lsp: not a JSON number */", "NaN": "number /* plugin-lsp: not a JSON number */",
	} {
		if got := numberLiteral(raw); got != want {
			t.Errorf("%s: got %s, want %s", raw, got, want)
		}
	}
	if got := numberLiteral("1" + strings.Repeat("0", 5000) + "e-5000"); got != "1" {
		t.Errorf("1 written with 5000 zeros: %s", got)
	}
	for f, want := range map[float64]string{math.Inf(1): "number /* plugin-lsp: not a finite number */", math.NaN(): "number /* plugin-lsp: not a finite number */", math.Copysign(0, -1): "0", 0.5: "0.5"} {
		if got := floatLiteral(f); got != want {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
}

var (
	longName        = strings.Repeat("n", 100<<10)
	longDescription = strings.Repeat("a long description ", 1<<20/19)
)

// hostilePlugin is a plugin whose tools have the adversarial schemas, plus
// tools whose names share a type-name prefix (a-b, a_b) and whose $defs
// spell each other's names, a tool description that tries to leave its
// comment, and the checks in code/check.ts: tsc must find exactly the
// errors annotated there.
func hostilePlugin(t *testing.T) string {
	dir := t.TempDir()
	var tools []any
	evil := "*/ } } export const pwnedTool = 1; /* \u2028 */"
	for _, a := range adversaries() {
		tools = append(tools, map[string]any{"name": a.name, "page": "code/x.ts", "description": evil, "inputJsonSchema": json.RawMessage(a.schema)})
	}
	defs := `{"$ref":"#/$defs/x","$defs":{"x":{"type":"object","properties":{"v":{"type":"string"}}},"b_x":{"$ref":"#/$defs/x"}}}`
	for _, name := range []string{"a-b", "a_b", "a"} {
		tools = append(tools, map[string]any{"name": name, "page": "code/x.ts", "inputJsonSchema": json.RawMessage(defs)})
	}
	exact := []string{"0", "-0", "1E+5", "0.1", "1e21", "-12.5e-3", "5e-324", "1.7976931348623157e308", "9007199254740992",
		"1152921504606846976", "0.1000000000000000055511151231257827021181583404541015625"}
	// A 100 KB tool name prefixes every type name of its schema's 500
	// $defs; a 1 MB description.
	var defProps, defList []string
	for i := range 500 {
		defProps = append(defProps, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/d%d"}`, i, i))
		defList = append(defList, fmt.Sprintf(`"d%d":{"type":"object","properties":{"up":{"$ref":"#/$defs/d%d"}}}`, i, (i+1)%500))
	}
	tools = append(tools, map[string]any{"name": longName, "page": "code/x.ts", "description": longDescription,
		"inputJsonSchema": json.RawMessage(`{"type":"object","properties":{` + strings.Join(defProps, ",") + `},"$defs":{` + strings.Join(defList, ",") + `}}`)})
	tools = append(tools, map[string]any{"name": "exact-numbers", "page": "code/x.ts",
		"inputJsonSchema": json.RawMessage(`{"enum":[` + strings.Join(exact, ",") + `]}`)})
	manifest, err := json.Marshal(map[string]any{"name": "hostile", "version": "0.1.0", "tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("plugin.json", manifest)

	// code/check.ts: values written as JavaScript reads them must have the
	// generated types, and near misses must not.
	var names map[string]any
	var enum []any
	for _, a := range adversaries() {
		switch a.name {
		case "odd-names-and-strings":
			var s struct {
				Properties map[string]struct{ Const any } `json:"properties"`
			}
			json.Unmarshal([]byte(a.schema), &s)
			names = map[string]any{}
			for k, v := range s.Properties {
				names[k] = v.Const
			}
		case "odd-enum-strings":
			var s struct{ Enum []any }
			json.Unmarshal([]byte(a.schema), &s)
			enum = s.Enum
		}
	}
	namesJS, _ := json.Marshal(names)
	enumJS, _ := json.Marshal(enum)
	check := "// Every odd name is a key of the type, with its const as the type.\n" +
		"export const names: Input<\"odd-names-and-strings\"> = " + string(namesJS) + ";\n" +
		"export const missing: Input<\"odd-names-and-strings\"> = { ...names, \"a\\\"b\": \"a\\\"c\" }; // error TS2322\n" +
		"export const values: Input<\"odd-enum-strings\">[] = " + string(enumJS) + ";\n" +
		"export const near: Input<\"odd-enum-strings\"> = \"line\\u2028sep \"; // error TS2820\n" +
		"// Each number, written as in the schema, has the literal type generated for it.\n" +
		"export const exact: Input<\"exact-numbers\">[] = [" + strings.Join(exact, ", ") + "];\n" +
		"export const close: Input<\"exact-numbers\"> = 0.30000000000000004; // error TS2322\n" +
		"export const big: Input<\"exact-numbers\"> = 1152921504606846977; // 2^60+1 reads as 2^60 in JavaScript too\n" +
		"export const huge: Input<\"numbers\">[\"n\"] = 1e400;\n" +
		"export const notLiteral: Input<\"numbers\">[\"c\"] = \"1e400\"; // error TS2322\n" +
		"// Descriptions stayed comments: nothing they say was declared.\n" +
		"pwnedTool; // error TS2304\n" +
		"pwned0; // error TS2304\n" +
		"// Tools whose names and $defs collide still have their own types.\n" +
		"export const ab: Input<\"a-b\"> = { v: \"s\" };\n" +
		"export const ab2: Input<\"a_b\"> = { v: 1 }; // error TS2322\n" +
		"export const a: Input<\"a\"> = { v: \"s\" };\n" +
		"// 300 branches, each requiring one of the parent's 300 properties: Parent & (A | B | …).\n" +
		"export const branch: Input<\"anyOf-300-branches-300-properties\"> = { p7: \"s\", p8: \"t\" };\n" +
		"export const branchType: Input<\"anyOf-300-branches-300-properties\"> = { p7: 1 }; // error TS2322\n" +
		"export const branchNone: Input<\"anyOf-300-branches-300-properties\"> = {}; // error TS2322\n" +
		"// The tool with the long name: its input refers to its 500 defs.\n" +
		"export const long: Input<\"" + longName + "\"> = { p0: { up: { up: {} } }, p499: { up: {} } };\n" +
		"export const longBad: Input<\"" + longName + "\"> = { p0: { up: 1 } }; // error TS2559\n"
	write("code/check.ts", []byte(check))
	write("code/x.ts", []byte("export default async function x(input: Input<\"a\">) { return input.v; }\n"))
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Manifest.Tools) != len(tools) {
		t.Fatalf("%d tools loaded, want %d (%v)", len(p.Manifest.Tools), len(tools), p.SyntaxError)
	}
	write(TypesPath, PluginTypes(p))
	write(TsconfigName, Tsconfig())
	return dir
}

// The types.d.ts of a plugin holding every adversarial schema compiles with
// the real TypeScript compiler, stays linear in the manifest's size, and
// the checks of code/check.ts fail exactly where annotated.
func TestAdversarialTypesCompile(t *testing.T) {
	dir := hostilePlugin(t)
	manifest, _ := os.ReadFile(filepath.Join(dir, "plugin.json"))
	types, _ := os.ReadFile(filepath.Join(dir, TypesPath))
	if len(types) > 4*len(manifest)+(64<<10) {
		t.Errorf("types.d.ts is %d bytes for a %d-byte manifest", len(types), len(manifest))
	}
	// The long name is written once (its property in PluginToolInputs), not
	// in each of its 500 type names; the description is cut.
	if n := strings.Count(string(types), longName); n != 1 {
		t.Errorf("the 100 KB tool name is written %d times", n)
	}
	if strings.Contains(string(types), longDescription[:2*maxDoc]) || !strings.Contains(string(types), longDescription[:maxDoc/2]) {
		t.Error("the 1 MB description is not cut to its first 8 KiB")
	}
	got := tsc(t, dir)
	want := expected(t, dir, "code")
	if len(want) < 6 {
		t.Fatalf("only %d annotated errors", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tsc errors differ\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A def reached through several spellings of its pointer (~0 for ~) is one
// type, and each direct $ref cycle is cut where it closes.
func TestRefSpellingsAndCycles(t *testing.T) {
	typ, decls := Convert(parseSchema(t, `{"type":"object","properties":{
		"t1":{"$ref":"#/$defs/~~"},"t2":{"$ref":"#/$defs/~0~"},"t3":{"$ref":"#/$defs/~~0"},"t4":{"$ref":"#/$defs/~0~0"},
		"a":{"$ref":"#/$defs/a"},"l":{"$ref":"#/$defs/l"}},
		"$defs":{"~~":{"type":"string"},"a":{"anyOf":[{"$ref":"#/$defs/b"},{"type":"null"}]},"b":{"allOf":[{"$ref":"#/$defs/a"},{"type":"object"}]},
		"l":{"anyOf":[{"type":"string"},{"type":"array","items":{"$ref":"#/$defs/l"}}]}}}`), "X")
	if n := strings.Count(typ, "X___;"); n != 4 {
		t.Errorf("%d properties of type X___, want 4:\n%s", n, typ)
	}
	got := strings.Join(decls, "\n")
	for _, want := range []string{"type X___ = string;", "type X_a = X_b | null;", "type X_b = " + cutCycle + ";", "type X_l = string | X_l[];"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}

// One budget for the whole types.d.ts: 80 tools of 64 KiB each (5 MiB of
// literal types) are cut where the file passes MaxOutput; the tools left
// out are counted in a comment, their inputs are unknown, and the file
// still compiles.
func TestToolsShareOneBudget(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("v", 64<<10)
	var tools []string
	for i := range 80 {
		tools = append(tools, fmt.Sprintf(`{"name":"t%d","page":"code/x.ts","inputJsonSchema":{"type":"object","properties":{"v":{"enum":["%s"]}},"required":["v"]}}`, i, long))
	}
	manifest := `{"name":"many","version":"0.1.0","tools":[` + strings.Join(tools, ",") + `]}`
	check := "export const first: Input<\"t0\"> = { v: \"" + long + "\" };\n" +
		"export const firstBad: Input<\"t0\"> = { v: \"w\" }; // error TS2322\n" +
		"export const last: Input<\"t79\"> = 42; // left out: unknown\n"
	for rel, text := range map[string]string{"plugin.json": manifest, "code/check.ts": check,
		"code/x.ts": "export default async function x(input: Input<\"t0\">) { return input.v; }\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	types := PluginTypes(p)
	if len(types) > MaxOutput+(256<<10) || !strings.Contains(string(types), "more tools left out") {
		t.Fatalf("%d bytes, %d tools written", len(types), strings.Count(string(types), "    t"))
	}
	for rel, text := range map[string][]byte{TypesPath: types, TsconfigName: Tsconfig()} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, rel), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := tsc(t, dir), expected(t, dir, "code"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tsc errors differ\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An index signature names a property type over inlineLimit instead of
// writing it twice, and two properties of one such type share one name.
func TestIndexSignatureNamesLongTypes(t *testing.T) {
	var enum []string
	for i := range 40 {
		enum = append(enum, fmt.Sprintf(`"value-%d"`, i))
	}
	long := `{"enum":[` + strings.Join(enum, ",") + `]}`
	typ, decls := Convert(parseSchema(t, `{"type":"object","properties":{"a":`+long+`,"b":`+long+`,"c":{"type":"string"}},"additionalProperties":{"type":"number"}}`), "X")
	if len(decls) != 1 || !strings.HasPrefix(decls[0], "type X_Shared = \"value-0\" | ") {
		t.Fatalf("decls %q", decls)
	}
	for _, want := range []string{"a?: X_Shared;", "b?: X_Shared;", "c?: string;", "[key: string]: number | X_Shared | string | undefined;"} {
		if !strings.Contains(typ, want) {
			t.Errorf("no %q in\n%s", want, typ)
		}
	}
}
