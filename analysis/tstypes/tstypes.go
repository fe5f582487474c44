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
//   - anyOf/oneOf → a union; allOf → an intersection
//
// The package is a leaf of analysis: it reads decoded JSON (any).
package tstypes

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MaxDepth bounds the nesting the generator follows (deeper: unknown).
const MaxDepth = 64

// Generator converts one schema; named types for its $defs are collected
// in Defs under Prefix.
type Generator struct {
	// Prefix names the schema's $defs types: Prefix + "_" + name.
	Prefix string
	root   map[string]any
	defs   map[string]string // ref → type name
	order  []string          // refs in the order they were first used
	bodies map[string]string // type name → body
}

// Convert returns the TypeScript type of schema (decoded JSON) and the
// declarations of the named types it uses ("type X = …;" lines).
func Convert(schema any, prefix string) (typ string, decls []string) {
	g := &Generator{Prefix: prefix, defs: map[string]string{}, bodies: map[string]string{}}
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
		body := g.typeOf(g.resolve(ref), 1, "")
		if body == name {
			body = "unknown" // {"$ref": "#/$defs/a"} as the whole of a: nothing to say
		}
		g.bodies[name] = body
	}
	for _, ref := range g.order {
		name := g.defs[ref]
		decls = append(decls, fmt.Sprintf("type %s = %s;", name, g.bodies[name]))
	}
	return typ, decls
}

func (g *Generator) resolve(ref string) any {
	ptr := strings.TrimPrefix(ref, "#")
	var cur any = g.root
	if ptr == "" {
		return cur
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	return cur
}

func (g *Generator) refName(ref string) (string, bool) {
	if name, ok := g.defs[ref]; ok {
		return name, true
	}
	var last string
	switch {
	case strings.HasPrefix(ref, "#/$defs/"):
		last = strings.TrimPrefix(ref, "#/$defs/")
	case strings.HasPrefix(ref, "#/definitions/"):
		last = strings.TrimPrefix(ref, "#/definitions/")
	case ref == "#":
		last = "Root"
	default:
		return "", false
	}
	if strings.Contains(last, "/") || g.resolve(ref) == nil {
		return "", false
	}
	name := g.Prefix + "_" + identifier(last)
	for taken := true; taken; {
		taken = false
		for _, n := range g.defs {
			if n == name {
				name += "_"
				taken = true
			}
		}
	}
	g.defs[ref] = name
	g.order = append(g.order, ref)
	return name, true
}

// identifier makes a TypeScript identifier part out of a name.
func identifier(s string) string {
	var b strings.Builder
	for _, r := range s {
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

func (g *Generator) typeOf(s any, depth int, indent string) string {
	if depth > MaxDepth {
		return "unknown"
	}
	switch v := s.(type) {
	case bool:
		if v {
			return "unknown"
		}
		return "never"
	case map[string]any:
		return g.objectSchema(v, depth, indent)
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
		return literal(c)
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		var parts []string
		for _, x := range e {
			parts = append(parts, literal(x))
		}
		return union(parts)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := s[kw].([]any); ok && len(list) > 0 {
			var parts []string
			for _, x := range list {
				parts = append(parts, g.withBase(s, x, depth, indent))
			}
			return union(parts)
		}
	}
	if list, ok := s["allOf"].([]any); ok && len(list) > 0 {
		var parts []string
		if base := g.typed(s, depth, indent); base != "unknown" {
			parts = append(parts, base)
		}
		for _, x := range list {
			parts = append(parts, paren(g.typeOf(x, depth+1, indent)))
		}
		return strings.Join(dedup(parts), " & ")
	}
	return g.typed(s, depth, indent)
}

// withBase is one anyOf/oneOf branch; sibling keywords of the branch
// list (a shared "type": "object" with "properties") apply to it too.
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
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if str, ok := x.(string); ok {
				types = append(types, str)
			}
		}
	}
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
			parts = append(parts, g.typeOf(x, depth+1, indent))
		}
		if hasItems {
			if b, ok := items.(bool); !ok || b {
				parts = append(parts, "..."+paren(g.typeOf(items, depth+1, indent))+"[]")
			}
		} else {
			parts = append(parts, "...unknown[]")
		}
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
	var lines []string
	var propTypes []string
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
	for _, k := range keys {
		ps := props[k]
		t := g.typeOf(ps, depth+1, inner)
		propTypes = append(propTypes, t)
		opt := "?"
		if required[k] {
			opt = ""
		}
		if m, ok := ps.(map[string]any); ok {
			if d, ok := m["description"].(string); ok && strings.TrimSpace(d) != "" {
				lines = append(lines, inner+doc(d, inner))
			}
		}
		lines = append(lines, fmt.Sprintf("%s%s%s: %s;", inner, propName(k), opt, t))
	}
	for _, k := range extra {
		lines = append(lines, fmt.Sprintf("%s%s: unknown;", inner, propName(k)))
		propTypes = append(propTypes, "unknown")
	}
	switch ap := s["additionalProperties"].(type) {
	case bool:
		if ap {
			lines = append(lines, inner+"[key: string]: unknown;")
		}
	case map[string]any:
		t := g.typeOf(ap, depth+1, inner)
		all := append([]string{t}, propTypes...)
		if len(propTypes) > 0 && len(keys) > len(required) {
			all = append(all, "undefined")
		}
		lines = append(lines, inner+"[key: string]: "+union(all)+";")
	}
	if len(lines) == 0 {
		if _, closed := s["additionalProperties"].(bool); closed {
			return "Record<string, never>"
		}
		return "{ [key: string]: unknown }"
	}
	return "{\n" + strings.Join(lines, "\n") + "\n" + indent + "}"
}

// doc is a JSDoc comment (one line when it fits).
func doc(text, indent string) string {
	text = strings.ReplaceAll(strings.TrimSpace(text), "*/", "*\\/")
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

func propName(k string) string {
	if isIdent(k) {
		return k
	}
	return strconv.Quote(k)
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

// literal is a JSON value as a TypeScript literal type.
func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool, float64, string:
		b, _ := json.Marshal(x)
		return string(b)
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, literal(e))
		}
		return "readonly [" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, propName(k)+": "+literal(x[k]))
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return "unknown"
}

func union(parts []string) string {
	parts = dedup(parts)
	for _, p := range parts {
		if p == "unknown" {
			return "unknown"
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
// element or a union member.
func paren(t string) string {
	depth := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '{', '[', '(', '<':
			depth++
		case '}', ']', ')', '>':
			depth--
		case '|', '&':
			if depth == 0 {
				return "(" + t + ")"
			}
		case '"':
			// skip string literal
			for i++; i < len(t) && t[i] != '"'; i++ {
				if t[i] == '\\' {
					i++
				}
			}
		}
	}
	return t
}
