package jsmodule

import (
	"fmt"
	"strings"
	"testing"
)

// benchModule is a realistic 300-line native module: imports, helpers,
// 14 tool definitions held in constants, a computed key and the map.
func benchModule() string {
	var b strings.Builder
	b.WriteString("// A native module for a chat protocol.\nimport { Client } from \"proto-client\";\nimport { createRequire } from \"node:module\";\n\n")
	b.WriteString("const NS = \"chat.\";\nconst CAPS = [\"secrets.read\", \"network.socket\"];\n\n")
	b.WriteString("async function session(ctx) {\n  const c = new Client({ host: ctx.config.host });\n  await c.login(await ctx.secret(\"chat\"));\n  ctx.onAbort(() => c.close());\n  return c;\n}\n\n")
	for i := 0; i < 14; i++ {
		fmt.Fprintf(&b, "const tool%d = {\n", i)
		fmt.Fprintf(&b, "  description: \"Tool number %d: does one thing with the chat server\",\n", i)
		b.WriteString("  inputJsonSchema: {\n    type: \"object\",\n    properties: {\n      room: { type: \"string\" },\n      text: { type: \"string\", maxLength: 4096 },\n    },\n    required: [\"room\"],\n  },\n")
		b.WriteString("  requires: CAPS,\n")
		if i%3 == 0 {
			b.WriteString("  needsApproval: false,\n")
		}
		b.WriteString("  async execute({ room, text }, ctx) {\n    const c = await session(ctx);\n    const res = await c.call(`op${room}`, { text: text ?? \"\" });\n    if (!res.ok) throw new Error(`failed: ${res.error}`);\n    return res.value;\n  },\n};\n\n")
	}
	b.WriteString("export const tools = {\n")
	for i := 0; i < 14; i++ {
		if i == 0 {
			fmt.Fprintf(&b, "  [NS + \"tool%d\"]: tool%d,\n", i, i)
		} else {
			fmt.Fprintf(&b, "  \"chat.tool%d\": tool%d,\n", i, i)
		}
	}
	b.WriteString("};\n")
	return b.String()
}

func TestBenchModule(t *testing.T) {
	src := benchModule()
	if n := strings.Count(src, "\n"); n < 280 || n > 320 {
		t.Fatalf("bench module has %d lines, want about 300", n)
	}
	m := ReadExports([]byte(src))
	if m.Tools == nil || len(m.Tools.Entries) != 14 || len(m.Tools.Unknowable) != 0 || len(m.Errors) != 0 {
		t.Fatalf("bench module misread:\n%s", describe(src, m))
	}
	if e := m.Tools.Entries[0]; e.Name != "chat.tool0" || len(e.Requires) != 2 || !e.Description || !e.Execute {
		t.Fatalf("bench module misread:\n%s", describe(src, m))
	}
}

func BenchmarkReadExports(b *testing.B) {
	src := []byte(benchModule())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		ReadExports(src)
	}
}

// The same module once goja rejects it (a for await in a body): the
// retry without bodies plus esbuild's confirmation.
func BenchmarkReadExportsModernSyntax(b *testing.B) {
	src := []byte(strings.Replace(benchModule(), "const c = await session(ctx);", "for await (const x of ctx.stream) {}\n    const c = await session(ctx);", 1))
	if m := ReadExports(src); m.Tools == nil || len(m.Tools.Entries) != 14 {
		b.Fatal("misread")
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		ReadExports(src)
	}
}

// The hostile alias chain of TestMutationsHostileChain (20,000 names,
// 870 kB): the cost of the search for writes at its worst.
func BenchmarkReadExportsAliasChain(b *testing.B) {
	src := []byte(aliasChain(20000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ReadExports(src)
	}
}
