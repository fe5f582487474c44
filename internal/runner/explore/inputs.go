package explore

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Marker is the start of the value a free-form string input gets: a host
// built from it holds the marker, so the call is known to depend on the
// input (fetch-dynamic-url), never reported as a host. Lower-case letters
// and digits: valid in a host name, kept by URL parsing.
const Marker = checker.ExploreMarker

// maxDepth bounds how deep generated objects go (a recursive schema).
const maxDepth = 4

// schemaOf is a JSON Schema as decoded JSON.
type schemaOf = map[string]any

// inputs returns the inputs to explore a tool with, most telling first,
// at most max: the schema's examples; a base input (required properties
// set, free-form strings as markers); then one change at a time to the
// base: each enum/const value, each literal the page compares with, a
// boolean both ways, a number at its bounds, an array of 0, 1 and 2
// elements, each optional property present and absent.
func inputs(sch schemaOf, literals []string, max int) []json.RawMessage {
	var out []json.RawMessage
	seen := map[string]bool{}
	add := func(v any) {
		if len(out) >= max {
			return
		}
		b, err := json.Marshal(v)
		if err != nil || seen[string(b)] {
			return
		}
		seen[string(b)] = true
		out = append(out, b)
	}
	if sch == nil {
		add(map[string]any{})
		return out
	}
	if ex, ok := sch["examples"].([]any); ok {
		for _, e := range ex {
			add(e)
		}
	}
	g := &gen{lits: literals}
	base := g.value(sch, 0, true)
	add(base)
	obj, isObj := base.(map[string]any)
	props, _ := sch["properties"].(map[string]any)
	if !isObj || props == nil {
		for _, v := range g.variants(sch, 0) {
			add(v)
		}
		return out
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	// examples with their free-form strings as markers: the same paths,
	// and which hosts come from the input
	if ex, ok := sch["examples"].([]any); ok {
		for _, e := range ex {
			if m, ok := e.(map[string]any); ok {
				c := clone(m)
				for _, n := range names {
					if ps, _ := props[n].(map[string]any); ps != nil && freeString(ps) {
						if _, has := c[n]; has {
							c[n] = g.str(ps)
						}
					}
				}
				add(c)
			}
		}
	}
	// one change at a time, property by property, round robin so that a
	// small budget still touches every property
	per := make([][]any, len(names))
	for i, n := range names {
		ps, _ := props[n].(map[string]any)
		for _, v := range g.variants(ps, 1) {
			c := clone(obj)
			c[n] = v
			per[i] = append(per[i], c)
		}
		if _, has := obj[n]; has && !required(sch, n) {
			c := clone(obj)
			delete(c, n)
			per[i] = append(per[i], c)
		} else if !has {
			c := clone(obj)
			c[n] = g.value(ps, 1, true)
			per[i] = append(per[i], c)
		}
	}
	for k := 0; len(out) < max; k++ {
		more := false
		for i := range per {
			if k < len(per[i]) {
				more = true
				add(per[i][k])
			}
		}
		if !more {
			break
		}
	}
	return out
}

type gen struct {
	lits []string
	n    int
}

func (g *gen) marker() string {
	g.n++
	return fmt.Sprintf("%s%d", Marker, g.n)
}

// value is the base value of a schema: its const, default, first example
// or enum value, else a value of its type (free strings as markers).
// all: set every property (optional ones too).
func (g *gen) value(s schemaOf, depth int, all bool) any {
	if s == nil || depth > maxDepth {
		return nil
	}
	if v, ok := s["const"]; ok {
		return v
	}
	if v, ok := s["default"]; ok {
		return v
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 && depth > 0 {
		return ex[0]
	}
	if en, ok := s["enum"].([]any); ok && len(en) > 0 {
		return en[0]
	}
	switch typeOf(s) {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for n, p := range props {
			if all && depth == 0 || required(s, n) {
				ps, _ := p.(map[string]any)
				out[n] = g.value(ps, depth+1, false)
			}
		}
		return out
	case "array":
		it, _ := s["items"].(map[string]any)
		return []any{g.value(it, depth+1, false)}
	case "integer", "number":
		if v, ok := s["minimum"]; ok {
			return v
		}
		return 1
	case "boolean":
		return false
	case "null":
		return nil
	case "string":
		return g.str(s)
	}
	return g.marker()
}

// str is the value of a free-form string schema: a new marker, or, when
// the schema bounds the string (format, pattern, length), a value that
// keeps to it, around the marker where it can (strings.go).
func (g *gen) str(s schemaOf) string {
	m := g.marker()
	if v, ok := constrained(s, m); ok {
		return v
	}
	return m
}

// variants are the other values worth a run for one property.
func (g *gen) variants(s schemaOf, depth int) []any {
	if s == nil {
		return nil
	}
	var out []any
	if en, ok := s["enum"].([]any); ok {
		return en
	}
	if ex, ok := s["examples"].([]any); ok {
		out = append(out, ex...)
	}
	switch typeOf(s) {
	case "boolean":
		out = append(out, true, false)
	case "integer", "number":
		for _, k := range []string{"minimum", "maximum"} {
			if v, ok := s[k]; ok {
				out = append(out, v)
			}
		}
		out = append(out, 0, 1)
	case "array":
		it, _ := s["items"].(map[string]any)
		out = append(out, []any{}, []any{g.value(it, depth+1, false)}, []any{g.value(it, depth+1, false), g.value(it, depth+1, false)})
		for _, v := range g.variants(it, depth+1) {
			out = append(out, []any{v})
		}
	case "string", "":
		out = append(out, g.marker())
		for _, l := range g.lits {
			out = append(out, l)
		}
	}
	return out
}

func typeOf(s schemaOf) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x, ok := x.(string); ok && x != "null" {
				return x
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return ""
}

func freeString(s schemaOf) bool {
	_, en := s["enum"]
	_, co := s["const"]
	return typeOf(s) == "string" && !en && !co
}

func required(s schemaOf, name string) bool {
	r, _ := s["required"].([]any)
	for _, x := range r {
		if x == name {
			return true
		}
	}
	return false
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// compared matches a string literal the code compares with or switches
// on ("eu" in `region === "eu"`, `case "eu":`), and an object key whose
// value is a URL (`eu: "https://eu.api.x.com"`, a table indexed by input).
var compared = []*regexp.Regexp{
	regexp.MustCompile(`(?:===?|!==?)\s*["'\x60]([A-Za-z0-9_.:-]{1,40})["'\x60]`),
	regexp.MustCompile(`["'\x60]([A-Za-z0-9_.:-]{1,40})["'\x60]\s*(?:===?|!==?)`),
	regexp.MustCompile(`case\s+["'\x60]([A-Za-z0-9_.:-]{1,40})["'\x60]\s*:`),
	regexp.MustCompile(`["']?([A-Za-z0-9_-]{1,40})["']?\s*:\s*["'\x60]https?://`),
	regexp.MustCompile(`\[\s*["'\x60]([A-Za-z0-9_-]{1,40})["'\x60]\s*,\s*["'\x60]https?://`),
}

// pageLiterals are the literals of a bundle worth trying as input values,
// at most max, in the order first seen.
func pageLiterals(code string, max int) []string {
	seen := map[string]bool{}
	var out []string
	for _, re := range compared {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			l := m[1]
			if seen[l] || strings.HasPrefix(l, "http") || len(out) >= max {
				continue
			}
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// freeValues are the string values of in that sit where the schema
// allows any string (no enum, no const), or where it says nothing.
func freeValues(sch schemaOf, in json.RawMessage) []string {
	var v any
	if json.Unmarshal(in, &v) != nil {
		return nil
	}
	var out []string
	var walk func(s schemaOf, v any, depth int)
	walk = func(s schemaOf, v any, depth int) {
		if depth > maxDepth {
			return
		}
		switch x := v.(type) {
		case string:
			if s == nil || freeString(s) || typeOf(s) == "" && s["enum"] == nil && s["const"] == nil {
				out = append(out, x)
			}
		case map[string]any:
			var props map[string]any
			if s != nil {
				props, _ = s["properties"].(map[string]any)
			}
			for k, e := range x {
				ps, _ := props[k].(map[string]any)
				walk(ps, e, depth+1)
			}
		case []any:
			var it schemaOf
			if s != nil {
				it, _ = s["items"].(map[string]any)
			}
			for _, e := range x {
				walk(it, e, depth+1)
			}
		}
	}
	walk(sch, v, 0)
	return out
}
