// Package tstypes turns JSON Schemas (a tool's inputJsonSchema) into
// TypeScript types, and writes a plugin's .plugin/types.d.ts: the host API
// the sandbox grants the plugin, the web globals it has, and per tool
// Input<"toolName">. `plugin-lsp types` and the language server use it.
//
// The mapping (what a plugin author expects from json-schema-to-typescript
// and `wrangler types`):
//
//   - type string/number/integer/boolean/null → string/number/boolean/null;
//     a list of types → a union; no type → what the other keywords say,
//     else unknown
//   - enum → a union of literals; const → a literal
//   - object: properties (required ones without "?"), descriptions as JSDoc;
//     additionalProperties false or absent → no index signature (so a
//     misspelt field is a type error), true → [key: string]: unknown, a
//     schema → [key: string]: T (widened with the property types)
//   - array: items → T[]; prefixItems → a tuple (with ...T[] for items)
//   - $ref to #/$defs/X or #/definitions/X → a named type (recursion works);
//     other $refs → unknown
//   - anyOf/oneOf → a union, each branch without a "type" taking its
//     parent's keywords (Parent & (A | B) once those are long); allOf → an
//     intersection
//   - numbers from their JSON text: a literal when one means exactly that
//     number, else number with a comment (1e400)
//
// The conversion is linear in the schema's size and bounded by a budget
// (MaxDepth, MaxNodes, MaxOutput): past it a type is unknown with a
// comment saying which limit it hit.
//
// The package is a leaf of analysis: it reads decoded JSON (any).
package tstypes

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// The budget of one file's types (a types.d.ts, or one Convert). Past it a
// type becomes unknown with a comment that says which limit it hit. See
// docs/limits.md, "Generated types: a budget".
const (
	// MaxDepth bounds the nesting the generator follows, in schemas
	// (properties, items, branches, $defs bodies) and in const/enum values.
	MaxDepth = 64
	// MaxNodes bounds the schemas converted (each object schema once per
	// depth it is reached at).
	MaxNodes = 100_000
	// MaxOutput bounds the TypeScript text produced, in bytes (roughly: the
	// check comes before each schema, property, literal and branch).
	MaxOutput = 4 << 20
	// maxDoc bounds one description's JSDoc comment, in bytes.
	maxDoc = 8 << 10
	// inlineLimit is the largest text written twice: a type needed in two
	// places (the parent's keywords in every anyOf branch, a property's type
	// in the index signature) is named instead once it is longer. This is
	// what keeps the output linear in the schema's size.
	inlineLimit = 256
)

// cutPrefix starts every type the budget replaced.
const cutPrefix = "unknown /* plugin-lsp: "

var (
	cutDepth  = cutPrefix + "nested deeper than " + strconv.Itoa(MaxDepth) + " levels */"
	cutNodes  = cutPrefix + "more than " + strconv.Itoa(MaxNodes) + " schemas */"
	cutOutput = cutPrefix + "the generated types passed " + strconv.Itoa(MaxOutput>>20) + " MiB */"
	cutCycle  = cutPrefix + "a $ref cycle with no object or array in it */"
)

// Generator converts one schema; the named types of its $defs are declared
// under Prefix.
type Generator struct {
	// Prefix names the schema's $defs types: Prefix + "_" + name.
	Prefix  string
	root    map[string]any
	defs    map[string]string // canonical ref (refKey) → type name
	defNode map[string]any    // canonical ref → the schema it points at
	order   []string          // canonical refs in the order they were first used
	bodies  map[string]string // type name → body
	shared  []string          // declarations of texts needed twice (inlineLimit)
	// sharedNames names each of them by its body: one text, one name.
	sharedNames map[string]string
	names       map[string]bool // every type name taken in the file
	memo        map[memoKey]memoEntry
	sharing     int // > 0 while converting anyOf/oneOf branches that inherit their parent's keywords
	*budget
}

// budget is what a file's conversions have used so far.
type budget struct {
	nodes int // schemas converted (MaxNodes)
	size  int // bytes of text produced, roughly (MaxOutput)
}

// spend marks the budget spent (a text longer than what is left of it).
func (b *budget) spend() bool {
	b.size = MaxOutput + 1
	return true
}

// cut is the reason the budget is spent, or "" while it is not.
func (b *budget) cut() string {
	switch {
	case b.nodes >= MaxNodes:
		return cutNodes
	case b.size > MaxOutput:
		return cutOutput
	}
	return ""
}

// memoKey is one object schema reached at one depth and indentation: its
// text is the same every time, so an anyOf branch that inherits the
// parent's properties converts them once, not once per branch.
type memoKey struct {
	node   uintptr
	depth  int
	indent int
}

type memoEntry struct {
	node map[string]any // keeps the map alive, so that its address is not reused
	text string
}

// Convert returns the TypeScript type of schema (decoded JSON) and the
// declarations of the named types it uses ("type X = …;" lines). Numbers
// may be float64 or json.Number (the exact text: see SchemaValue).
func Convert(schema any, prefix string) (typ string, decls []string) {
	return convert(schema, prefix, map[string]bool{}, &budget{})
}

// convert is Convert with the set of type names already taken in the file
// (two tools' prefixes and $defs can spell the same name) and the file's
// budget.
func convert(schema any, prefix string, names map[string]bool, b *budget) (typ string, decls []string) {
	g := &Generator{Prefix: prefix, defs: map[string]string{}, defNode: map[string]any{},
		bodies: map[string]string{}, names: names, budget: b}
	g.root, _ = schema.(map[string]any)
	typ = g.typeOf(schema, 0, "")
	// Resolving a def may use more defs: loop until all have bodies.
	for i := 0; i < len(g.order); i++ {
		ref := g.order[i]
		name := g.defs[ref]
		if _, done := g.bodies[name]; done {
			continue
		}
		g.bodies[name] = "" // recursion guard
		body := g.typeOf(g.defNode[ref], 1, "")
		if body == name {
			body = "unknown" // {"$ref": "#/$defs/a"} as the whole of a: nothing to say
		}
		g.bodies[name] = body
	}
	g.breakCycles()
	for _, ref := range g.order {
		name := g.defs[ref]
		decls = append(decls, "type "+name+" = "+g.bodies[name]+";")
	}
	return typ, append(decls, g.shared...)
}

// SchemaValue is a schema from plugin.json as plain Go values, like
// jsonpos.Node.Interface but with each number as its json.Number text, so
// that 1e400 or 12345678901234567890 is seen as written, not as a float64.
// The reader bounds the nesting (10,000 levels), so the recursion is bounded.
func SchemaValue(n *jsonpos.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case jsonpos.Number:
		return json.Number(n.Raw)
	case jsonpos.Object:
		m := make(map[string]any, len(n.Members))
		for _, c := range n.Members {
			m[c.Key] = SchemaValue(c)
		}
		return m
	case jsonpos.Array:
		a := make([]any, len(n.Elems))
		for i, c := range n.Elems {
			a[i] = SchemaValue(c)
		}
		return a
	}
	return n.Interface()
}

// refKey is the canonical form of a $ref the generator names: the
// JSON-pointer tokens decoded, so that "#/$defs/~0" and "#/$defs/~" (one
// def) get one name and one body. last is the def's name.
func refKey(ref string) (key, last string, ok bool) {
	var container string
	switch {
	case strings.HasPrefix(ref, "#/$defs/"):
		container, last = "$defs", strings.TrimPrefix(ref, "#/$defs/")
	case strings.HasPrefix(ref, "#/definitions/"):
		container, last = "definitions", strings.TrimPrefix(ref, "#/definitions/")
	case ref == "#":
		return "#", "Root", true
	default:
		return "", "", false
	}
	if strings.Contains(last, "/") {
		return "", "", false
	}
	if strings.Contains(last, "~") {
		last = strings.ReplaceAll(strings.ReplaceAll(last, "~1", "/"), "~0", "~")
	}
	return container + "/" + last, last, true
}

func (g *Generator) refName(ref string) (string, bool) {
	key, last, ok := refKey(ref)
	if !ok {
		return "", false
	}
	if name, ok := g.defs[key]; ok {
		return name, true
	}
	var node any
	if key == "#" {
		node = g.root
		if g.root == nil {
			return "", false
		}
	} else {
		container, _ := g.root[strings.TrimSuffix(key, "/"+last)].(map[string]any)
		var found bool
		if node, found = container[last]; !found || node == nil {
			return "", false
		}
	}
	name := g.newName(g.Prefix + "_" + identifier(last))
	g.defs[key] = name
	g.defNode[key] = node
	g.order = append(g.order, key)
	return name, true
}

// newName takes the first of base, base_, base_2, base_3, … that no type
// in the file has.
func (g *Generator) newName(base string) string {
	name := base
	for i := 1; g.names[name]; i++ {
		if i == 1 {
			name = base + "_"
		} else {
			name = base + "_" + strconv.Itoa(i)
		}
	}
	g.names[name] = true
	return name
}

// share names a text needed in a second place (longer than inlineLimit);
// it was written at indent.
func (g *Generator) share(text, indent string) string {
	if len(text) <= inlineLimit {
		return text
	}
	body := strings.ReplaceAll(text, "\n"+indent, "\n")
	if name, ok := g.sharedNames[body]; ok {
		return name
	}
	name := g.newName(g.Prefix + "_Shared")
	if g.sharedNames == nil {
		g.sharedNames = map[string]string{}
	}
	g.sharedNames[body] = name
	g.shared = append(g.shared, "type "+name+" = "+body+";")
	return name
}

// breakCycles turns into unknown the $defs whose type would refer to
// itself with no object or array in between (type A = B; type B = A | string):
// TypeScript refuses such an alias (TS2456).
func (g *Generator) breakCycles() {
	index := make(map[string]int, len(g.order)) // type name → position in g.order
	for i, ref := range g.order {
		index[g.defs[ref]] = i
	}
	edges := make([][]int, len(g.order))
	for i, ref := range g.order {
		body := g.bodies[g.defs[ref]]
		if strings.HasPrefix(body, "{") && skipBracketed(body, 0) == len(body) {
			continue // one object type: every reference in it is deferred
		}
		for _, n := range directRefs(body, index) {
			edges[i] = append(edges[i], index[n])
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]byte, len(g.order))
	var visit func(n int)
	visit = func(n int) {
		color[n] = grey
		for _, m := range edges[n] {
			switch color[m] {
			case grey: // n closes a cycle: n becomes unknown, which ends every cycle through it
				g.bodies[g.defs[g.order[n]]] = cutCycle
				color[n] = black
				return
			case white:
				visit(m)
			}
		}
		color[n] = black
	}
	for n := range g.order { // in order of first use: deterministic
		if color[n] == white {
			visit(n)
		}
	}
}

// directRefs lists the names of names that body refers to outside any
// object type ({…}), tuple ([…]) or array element (T[], (…)[]): the
// references TypeScript resolves eagerly.
func directRefs(body string, names map[string]int) []string {
	var stack [][]string // refs found inside each open "("
	var out []string
	add := func(n string) {
		if len(stack) > 0 {
			stack[len(stack)-1] = append(stack[len(stack)-1], n)
		} else {
			out = append(out, n)
		}
	}
	arrayAfter := func(i int) bool { return strings.HasPrefix(body[i:], "[]") }
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '"':
			i = skipString(body, i)
		case c == '/' && strings.HasPrefix(body[i:], "/*"):
			i = skipComment(body, i)
		case c == '{' || c == '[':
			i = skipBracketed(body, i)
		case c == '(':
			stack = append(stack, nil)
			i++
		case c == ')':
			i++
			if len(stack) == 0 {
				continue
			}
			inner := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !arrayAfter(i) {
				for _, n := range inner {
					add(n)
				}
			}
		case isIdentByte(c):
			j := i
			for j < len(body) && isIdentByte(body[j]) {
				j++
			}
			if _, ok := names[body[i:j]]; ok && !arrayAfter(j) {
				add(body[i:j])
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// skipString returns the index after the string literal starting at i.
func skipString(t string, i int) int {
	for i++; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(t)
}

// skipComment returns the index after the /* comment */ starting at i.
func skipComment(t string, i int) int {
	if end := strings.Index(t[i+2:], "*/"); end >= 0 {
		return i + 2 + end + 2
	}
	return len(t)
}

// skipBracketed returns the index after the bracket opened at i and its
// match, skipping strings and comments.
func skipBracketed(t string, i int) int {
	depth := 0
	for i < len(t) {
		switch c := t[i]; {
		case c == '"':
			i = skipString(t, i)
			continue
		case c == '/' && strings.HasPrefix(t[i:], "/*"):
			i = skipComment(t, i)
			continue
		case c == '{' || c == '[' || c == '(' || c == '<':
			depth++
		case c == '}' || c == ']' || c == ')' || c == '>':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(t)
}

// identifier makes a TypeScript identifier part out of a name, at most
// maxIdent bytes of it: a type name is written at every use, so a long
// one would be repeated.
func identifier(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= maxIdent {
			break
		}
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

const maxIdent = 64

func (g *Generator) typeOf(s any, depth int, indent string) string {
	if depth > MaxDepth {
		return cutDepth
	}
	switch v := s.(type) {
	case bool:
		if v {
			return "unknown"
		}
		return "never"
	case map[string]any:
		// Outside inheriting branches each schema is reached once (a tree,
		// and each $def is converted once): no memo needed.
		var key memoKey
		if g.sharing > 0 {
			key = memoKey{reflect.ValueOf(v).Pointer(), depth, len(indent)}
			if e, ok := g.memo[key]; ok {
				g.size += len(e.text)
				return e.text
			}
		}
		if why := g.cut(); why != "" {
			return why
		}
		g.nodes++
		t := g.objectSchema(v, depth, indent)
		if g.sharing > 0 {
			if g.memo == nil {
				g.memo = map[memoKey]memoEntry{}
			}
			g.memo[key] = memoEntry{v, t}
		}
		return t
	}
	return "unknown"
}

func (g *Generator) objectSchema(s map[string]any, depth int, indent string) string {
	if ref, ok := s["$ref"].(string); ok {
		if name, ok := g.refName(ref); ok {
			return name
		}
		return "unknown"
	}
	if c, ok := s["const"]; ok {
		return g.literal(c, depth)
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		var parts []string
		for _, x := range e {
			if why := g.cut(); why != "" {
				return why
			}
			parts = append(parts, g.literal(x, depth))
		}
		return union(parts)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := s[kw].([]any); ok && len(list) > 0 {
			return g.branches(s, list, depth, indent)
		}
	}
	if list, ok := s["allOf"].([]any); ok && len(list) > 0 {
		var parts []string
		if base := g.typed(s, depth, indent); !isUnknown(base) {
			parts = append(parts, base)
		}
		for _, x := range list {
			if why := g.cut(); why != "" {
				return why
			}
			parts = append(parts, paren(g.typeOf(x, depth+1, indent)))
		}
		g.size += 3 * len(parts)
		return strings.Join(dedup(parts), " & ")
	}
	return g.typed(s, depth, indent)
}

// branches is anyOf/oneOf: a union of the branches. Sibling keywords of
// the branch list (a shared "type": "object" with "properties") apply to
// each branch that has no "type" of its own, by merging them into it. When
// two or more branches would inherit them and they come to more than
// inlineLimit bytes, the parent's type is written once and intersected
// with the union instead (what JSON Schema means anyway): repeating it in
// every branch is what made a 3 KB schema of 40 such levels produce 2^40
// copies.
func (g *Generator) branches(s map[string]any, list []any, depth int, indent string) string {
	var parts []string
	if _, has := s["type"]; has {
		merging := 0
		for _, x := range list {
			if b, ok := x.(map[string]any); ok {
				if _, own := b["type"]; !own {
					merging++
				}
			}
		}
		if merging >= 2 {
			g.sharing++
			defer func() { g.sharing-- }()
			base := map[string]any{}
			for k, v := range s {
				if k != "anyOf" && k != "oneOf" {
					base[k] = v
				}
			}
			if shared := g.typeOf(base, depth+1, indent); len(shared) > inlineLimit {
				for _, x := range list {
					if why := g.cut(); why != "" {
						return why
					}
					parts = append(parts, paren(g.typeOf(x, depth+1, indent)))
				}
				if u := union(parts); !isUnknown(u) {
					return paren(shared) + " & " + paren(u)
				}
				return shared
			}
		}
	}
	for _, x := range list {
		if why := g.cut(); why != "" {
			return why
		}
		parts = append(parts, g.withBase(s, x, depth, indent))
	}
	g.size += 3 * len(parts)
	return union(parts)
}

// withBase is one anyOf/oneOf branch with the parent's keywords merged in.
func (g *Generator) withBase(parent map[string]any, branch any, depth int, indent string) string {
	b, ok := branch.(map[string]any)
	if !ok {
		return g.typeOf(branch, depth+1, indent)
	}
	if _, has := parent["type"]; has {
		if _, own := b["type"]; !own {
			merged := map[string]any{}
			for k, v := range parent {
				if k != "anyOf" && k != "oneOf" {
					merged[k] = v
				}
			}
			for k, v := range b {
				merged[k] = v
			}
			return paren(g.typeOf(merged, depth+1, indent))
		}
	}
	return paren(g.typeOf(b, depth+1, indent))
}

// typed handles "type" (and its absence).
func (g *Generator) typed(s map[string]any, depth int, indent string) string {
	types := schema.TypeNames(s["type"])
	if len(types) == 0 {
		switch {
		case s["properties"] != nil || s["additionalProperties"] != nil || s["required"] != nil:
			types = []string{"object"}
		case s["items"] != nil || s["prefixItems"] != nil:
			types = []string{"array"}
		default:
			return "unknown"
		}
	}
	// ["object", "object", …] is one object: converting it once per entry
	// multiplied the work by the list's length at every level.
	types = dedup(types)
	var parts []string
	for _, t := range types {
		switch t {
		case "string":
			parts = append(parts, "string")
		case "number", "integer":
			parts = append(parts, "number")
		case "boolean":
			parts = append(parts, "boolean")
		case "null":
			parts = append(parts, "null")
		case "array":
			parts = append(parts, g.array(s, depth, indent))
		case "object":
			parts = append(parts, g.object(s, depth, indent))
		default:
			parts = append(parts, "unknown")
		}
	}
	return union(parts)
}

func (g *Generator) array(s map[string]any, depth int, indent string) string {
	prefix, _ := s["prefixItems"].([]any)
	items, hasItems := s["items"]
	if len(prefix) > 0 {
		var parts []string
		for _, x := range prefix {
			if why := g.cut(); why != "" {
				return why
			}
			parts = append(parts, g.typeOf(x, depth+1, indent))
		}
		if hasItems {
			if b, ok := items.(bool); !ok || b {
				parts = append(parts, "..."+paren(g.typeOf(items, depth+1, indent))+"[]")
			}
		} else {
			parts = append(parts, "...unknown[]")
		}
		g.size += 2 * len(parts)
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if !hasItems {
		return "unknown[]"
	}
	return paren(g.typeOf(items, depth+1, indent)) + "[]"
}

func (g *Generator) object(s map[string]any, depth int, indent string) string {
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, x := range r {
			if k, ok := x.(string); ok {
				required[k] = true
			}
		}
	}
	inner := indent + "  "
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// Required keys that have no property schema are still known keys.
	var extra []string
	for k := range required {
		if _, ok := props[k]; !ok {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	// Past the budget the remaining keys are left out, and an index
	// signature admits them.
	var left int
	types := make([]string, 0, len(keys))
	for i, k := range keys {
		if g.cut() != "" || g.size+len(k) > MaxOutput && g.spend() {
			left = len(keys) - i
			keys = keys[:i]
			break
		}
		g.size += len(inner) + len(k) + 4
		types = append(types, g.typeOf(props[k], depth+1, inner))
	}
	for i, k := range extra {
		if g.cut() != "" || g.size+len(k) > MaxOutput && g.spend() {
			left += len(extra) - i
			extra = extra[:i]
			break
		}
		g.size += len(inner) + len(k) + 12
	}
	var index string
	switch ap := s["additionalProperties"].(type) {
	case bool:
		if ap {
			index = "unknown"
		}
	case map[string]any:
		// The index signature must admit every property's type: a long one
		// is named, not written twice (once per level, that doubled the text).
		all := []string{g.typeOf(ap, depth+1, inner)}
		for i := range types {
			types[i] = g.share(types[i], inner)
			all = append(all, types[i])
		}
		if len(extra) > 0 {
			all = append(all, "unknown")
		}
		if len(keys)+len(extra) > 0 && len(keys) > len(required) {
			all = append(all, "undefined")
		}
		index = union(all)
	}
	var lines []string
	for i, k := range keys {
		opt := "?"
		if required[k] {
			opt = ""
		}
		if m, ok := props[k].(map[string]any); ok {
			if d, ok := m["description"].(string); ok && strings.TrimSpace(d) != "" {
				lines = append(lines, inner+doc(d, inner))
				g.size += len(lines[len(lines)-1])
			}
		}
		lines = append(lines, inner+propName(k)+opt+": "+types[i]+";")
	}
	for _, k := range extra {
		lines = append(lines, inner+propName(k)+": unknown;")
	}
	if left > 0 {
		lines = append(lines, inner+"/* plugin-lsp: "+strconv.Itoa(left)+" more properties left out: the generated types passed their budget */")
		index = "unknown"
	}
	if index != "" {
		lines = append(lines, inner+"[key: string]: "+index+";")
	}
	if len(lines) == 0 {
		if _, closed := s["additionalProperties"].(bool); closed {
			return "Record<string, never>"
		}
		return "{ [key: string]: unknown }"
	}
	return "{\n" + strings.Join(lines, "\n") + "\n" + indent + "}"
}

// doc is a JSDoc comment (one line when it fits). No text can end it
// early: "*/" is written "*\/". Line separators (CR, U+2028, U+2029) end a
// line; other control and format characters (NUL, terminal escapes, bidi
// overrides that make a line read differently than it is) become U+FFFD.
func doc(text, indent string) string {
	text = strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n':
			return r
		case r == '\r' || r == '\u2028' || r == '\u2029':
			return '\n'
		case unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r):
			return '\uFFFD'
		}
		return r
	}, strings.ReplaceAll(text, "\r\n", "\n"))
	text = strings.TrimSpace(text)
	if len(text) > maxDoc {
		cut := maxDoc
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + " …(" + strconv.Itoa(len(text)) + " bytes)"
	}
	text = strings.ReplaceAll(text, "*/", "*\\/")
	if !strings.Contains(text, "\n") {
		return "/** " + text + " */"
	}
	var b strings.Builder
	b.WriteString("/**\n")
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(indent + " * " + strings.TrimRight(l, " \t") + "\n")
	}
	b.WriteString(indent + " */")
	return strings.ReplaceAll(b.String(), " * \n", " *\n")
}

// propName is a property name as TypeScript writes it: bare when it is an
// ASCII identifier, else a string literal (jsString).
func propName(k string) string {
	if isIdent(k) {
		return k
	}
	return jsString(k)
}

func isIdent(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// jsString is s as a double-quoted string literal that means s in
// TypeScript: quotes, backslashes and control characters escaped, and so
// is every character that does not print (U+2028 and U+2029, which end a
// line in older JavaScript, bidi overrides, a BOM); invalid UTF-8 becomes
// U+FFFD, as the JSON reader makes it.
func jsString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == ' ' || r >= 0x20 && strconv.IsPrint(r):
			b.WriteRune(r)
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// literal is a JSON value as a TypeScript literal type.
func (g *Generator) literal(v any, depth int) string {
	if depth > MaxDepth {
		return cutDepth
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		if g.size += len(x) + 2; g.size > MaxOutput { // and the budget is spent
			return "string /* plugin-lsp: a string literal past the output budget */"
		}
		return jsString(x)
	case float64:
		return floatLiteral(x)
	case json.Number:
		g.size += len(x)
		return numberLiteral(string(x))
	case []any:
		var parts []string
		for _, e := range x {
			if why := g.cut(); why != "" {
				return why
			}
			parts = append(parts, g.literal(e, depth+1))
		}
		g.size += 12 + 2*len(parts)
		return "readonly [" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			if why := g.cut(); why != "" {
				return why
			}
			if g.size+len(k) > MaxOutput && g.spend() {
				return cutOutput
			}
			g.size += len(k) + 4
			parts = append(parts, propName(k)+": "+g.literal(x[k], depth+1))
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return "unknown"
}

// floatLiteral is a number already decoded to a float64.
func floatLiteral(f float64) string {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		return "number /* plugin-lsp: not a finite number */"
	case f == 0:
		return "0" // -0 is 0 to JSON Schema, and as a type
	}
	b, _ := json.Marshal(f) // finite: never fails
	return string(b)
}

// numberLiteral is a JSON number, from its text, as a TypeScript literal
// type when one means exactly that number, else number with a comment:
// 1e400 is no double (JavaScript reads it as Infinity), 0.1e-400 reads as 0,
// 9007199254740993 as 9007199254740992. A number that is the nearest
// double to the text in its shortest form (0.1, 1E+5) is written as
// JavaScript writes that double (0.1, 100000); one whose decimal value is
// exactly a double (2^60 in full) as that decimal.
func numberLiteral(raw string) string {
	neg, digits, exp, ok := decimal(raw)
	switch {
	case !ok:
		return "number /* plugin-lsp: not a JSON number */"
	case digits == "":
		return "0"
	}
	inexact := "number /* plugin-lsp: " + shorten(raw) + " is no exact double */"
	// Parsed from the normalised form: strconv reads a text with thousands
	// of zeros and a matching exponent ("1000…0e-5000") as 0.
	f, err := strconv.ParseFloat("0."+digits+"e"+strconv.Itoa(exp), 64)
	if neg {
		f = -f
	}
	if err != nil || math.IsInf(f, 0) || f == 0 {
		return inexact
	}
	if n2, d2, e2, _ := decimal(strconv.FormatFloat(f, 'e', -1, 64)); n2 == neg && d2 == digits && e2 == exp {
		return floatLiteral(f)
	}
	// The value is a double exactly when the rational it writes equals the
	// double's; a double has at most 767 significant decimal digits.
	if len(digits) > 800 {
		return inexact
	}
	r, ok := new(big.Rat).SetString("0." + digits + "e" + strconv.Itoa(exp))
	if !ok {
		return inexact
	}
	if neg {
		r.Neg(r)
	}
	if r.Cmp(new(big.Rat).SetFloat64(f)) != 0 {
		return inexact
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if exp >= len(digits) { // an integer: all its digits
		return sign + digits + strings.Repeat("0", exp-len(digits))
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(exp-1)
}

// shorten cuts a number's text for a comment (it holds only digits, signs,
// ".", "e" and "E": nothing that could end the comment).
func shorten(raw string) string {
	if len(raw) > 40 {
		return raw[:20] + "…" + raw[len(raw)-12:]
	}
	return raw
}

// decimal reads a JSON number as ±0.digits × 10^exp, digits without
// leading or trailing zeros ("" for zero). ok is false for text that is
// not a JSON number. An exponent past ±10^9 is clamped: it is out of any
// double's range whatever the digits (a file holds at most 64 MiB of them).
func decimal(raw string) (neg bool, digits string, exp int, ok bool) {
	s := raw
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intPart := s[:i]
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return false, "", 0, false
	}
	s = s[i:]
	frac := ""
	if strings.HasPrefix(s, ".") {
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 1 {
			return false, "", 0, false
		}
		frac, s = s[1:j], s[j:]
	}
	e := 0
	if s != "" {
		if s[0] != 'e' && s[0] != 'E' {
			return false, "", 0, false
		}
		s = s[1:]
		eneg := false
		if s != "" && (s[0] == '+' || s[0] == '-') {
			eneg, s = s[0] == '-', s[1:]
		}
		if s == "" {
			return false, "", 0, false
		}
		for _, c := range []byte(s) {
			if c < '0' || c > '9' {
				return false, "", 0, false
			}
			if e < 1e9 {
				e = e*10 + int(c-'0')
			}
		}
		if eneg {
			e = -e
		}
	}
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	digits = strings.TrimRight(all[lead:], "0")
	if digits == "" {
		return neg, "", 0, true
	}
	return neg, digits, len(intPart) - lead + e, true
}

// isUnknown reports whether t is unknown, maybe with the budget's comment.
func isUnknown(t string) bool {
	return t == "unknown" || strings.HasPrefix(t, cutPrefix) && strings.Index(t, "*/") == len(t)-2
}

func union(parts []string) string {
	parts = dedup(parts)
	for _, p := range parts {
		if isUnknown(p) {
			return p
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	for i, p := range parts {
		parts[i] = paren(p)
	}
	return strings.Join(parts, " | ")
}

func dedup(parts []string) []string {
	seen := map[string]bool{}
	out := parts[:0:0]
	for _, p := range parts {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// paren wraps a union or intersection (or function) so it can be an array
// element or a union member. Strings and comments (a description's JSDoc)
// are skipped: their braces and bars are text.
func paren(t string) string {
	depth := 0
	for i := 0; i < len(t); {
		switch c := t[i]; {
		case c == '"':
			i = skipString(t, i)
			continue
		case c == '/' && strings.HasPrefix(t[i:], "/*"):
			i = skipComment(t, i)
			continue
		case c == '{' || c == '[' || c == '(' || c == '<':
			depth++
		case c == '}' || c == ']' || c == ')' || c == '>':
			depth--
		case c == '|' || c == '&':
			if depth == 0 {
				return "(" + t + ")"
			}
		}
		i++
	}
	return t
}
