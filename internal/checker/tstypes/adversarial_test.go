package tstypes

import (
	"encoding/json"
	"fmt"
	"strings"
)

// adversary is one hostile input schema, as a plugin author or an attacker
// would write it into plugin.json.
type adversary struct {
	name   string
	schema string
}

// tower nests level(inner) n times around a leaf, in linear time: level
// writes inner once, so it is what comes before and after it, repeated.
func tower(n int, leaf string, level func(inner string) string) string {
	before, after, ok := strings.Cut(level("\x00"), "\x00")
	if !ok {
		panic("level does not use its inner schema")
	}
	return strings.Repeat(before, n) + leaf + strings.Repeat(after, n)
}

// adversaries are the schemas that blew up (or broke) the generator, and
// the shapes around them: each multiplies work or text at one place if
// nothing bounds it.
func adversaries() []adversary {
	str := `{"type":"string"}`
	var out []adversary
	add := func(name, schema string) { out = append(out, adversary{name, schema}) }

	// The schema: anyOf beside properties, 40 levels (3 KB). Each
	// branch inherited the parent's properties, so the text doubled per level.
	add("anyOf-beside-properties-40", tower(40, str, func(in string) string {
		return `{"type":"object","properties":{"x":` + in + `},"anyOf":[{"required":["x"]},{}]}`
	}))
	add("oneOf-beside-properties-40", tower(40, str, func(in string) string {
		return `{"type":"object","properties":{"x":` + in + `,"y":{"type":"number"}},"oneOf":[{"required":["x"]},{"required":["y"]},{"properties":{"z":{"const":1}}}]}`
	}))
	// allOf beside properties, and allOf inside the merged anyOf branches.
	add("allOf-beside-properties-40", tower(40, str, func(in string) string {
		return `{"type":"object","properties":{"x":` + in + `},"allOf":[{"required":["x"]},{"properties":{"y":{"type":"string"}}}]}`
	}))
	add("anyOf-allOf-oneOf-mixed-30", tower(30, str, func(in string) string {
		return `{"type":"object","properties":{"a":` + in + `,"b":{"type":"integer"}},"allOf":[{"properties":{"c":{"type":"boolean"}}}],"anyOf":[{},{"required":["a"]},{"required":["b"]}],"oneOf":[{},{}]}`
	}))
	// Wide, not deep: 300 branches that each inherit 300 properties (the
	// square of the schema's size if every branch repeats them).
	{
		var props, branches []string
		for i := range 300 {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
			branches = append(branches, fmt.Sprintf(`{"required":["p%d"]}`, i))
		}
		add("anyOf-300-branches-300-properties", `{"type":"object","properties":{`+strings.Join(props, ",")+`},"anyOf":[`+strings.Join(branches, ",")+`]}`)
	}
	// additionalProperties beside properties: the index signature repeats
	// every property type.
	add("additionalProperties-beside-properties-40", tower(40, str, func(in string) string {
		return `{"type":"object","properties":{"x":` + in + `},"additionalProperties":{"type":"number"}}`
	}))
	// A type list naming object many times: rendered once per entry.
	add("type-list-repeated-30", tower(30, str, func(in string) string {
		return `{"type":["object","object","object","object","null"],"properties":{"x":` + in + `}}`
	}))
	// Arrays and tuples around the same towers.
	add("prefixItems-anyOf-30", tower(30, str, func(in string) string {
		return `{"type":"array","prefixItems":[` + in + `,{"type":"null"}],"items":{"type":"object","properties":{"k":{"type":"string"}}},"anyOf":[{"minItems":1},{"maxItems":3}]}`
	}))
	// Every level a $ref to a def that is the next level.
	{
		defs := []string{}
		for i := range 40 {
			defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","properties":{"x":{"$ref":"#/$defs/d%d"},"y":{"$ref":"#/$defs/d%d"}},"anyOf":[{"required":["x"]},{"required":["y"]}]}`, i, i+1, i+1))
		}
		defs = append(defs, `"d40":{"type":"string"}`)
		add("ref-chain-40", `{"$ref":"#/$defs/d0","$defs":{`+strings.Join(defs, ",")+`}}`)
	}
	// $ref cycles: direct, mutual, through a union, through the root, and
	// one def spelt many ways (~0 for ~) so that each spelling had its own copy.
	add("ref-cycles", `{"type":"object","properties":{
		"self":{"$ref":"#/$defs/self"},"a":{"$ref":"#/$defs/a"},"u":{"$ref":"#/$defs/u"},
		"i":{"$ref":"#/$defs/i"},"root":{"$ref":"#"},"list":{"$ref":"#/$defs/list"},
		"obj":{"$ref":"#/$defs/obj"},"t1":{"$ref":"#/$defs/~~"},"t2":{"$ref":"#/$defs/~0~"},
		"t3":{"$ref":"#/$defs/~~0"},"t4":{"$ref":"#/$defs/~0~0"}},
		"$defs":{"self":{"$ref":"#/$defs/self"},
			"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/c"},"c":{"$ref":"#/$defs/a"},
			"u":{"anyOf":[{"$ref":"#/$defs/u"},{"type":"string"}]},
			"i":{"allOf":[{"$ref":"#/$defs/j"},{"type":"object"}]},"j":{"oneOf":[{"$ref":"#/$defs/i"},{"type":"null"}]},
			"list":{"anyOf":[{"type":"string"},{"type":"array","items":{"$ref":"#/$defs/list"}}]},
			"obj":{"type":"object","properties":{"next":{"$ref":"#/$defs/obj"},"all":{"$ref":"#"}}},
			"~~":{"type":"object","properties":{"x":{"$ref":"#/$defs/~0~0"}}}}}`)
	// Wide: 10,000 properties, 10,000 $defs whose names are one identifier,
	// an enum of 10,000 values.
	{
		var props, defs, enum []string
		for i := range 10000 {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"integer","description":"field %d"}`, i, i))
			defs = append(defs, fmt.Sprintf(`"d-%d":{"type":"object","properties":{"v":{"$ref":"#/$defs/d.%d"},"next":{"$ref":"#/$defs/d-%d"}}}`, i, i, (i+1)%10000))
			defs = append(defs, fmt.Sprintf(`"d.%d":{"type":"string"}`, i))
			enum = append(enum, fmt.Sprintf(`"v%d"`, i))
		}
		add("properties-10000", `{"type":"object","properties":{`+strings.Join(props, ",")+`},"required":["p0","p9999"]}`)
		add("defs-20000-colliding-names", `{"$ref":"#/$defs/d-0","$defs":{`+strings.Join(defs, ",")+`}}`)
		add("enum-10000", `{"enum":[`+strings.Join(enum, ",")+`]}`)
	}
	// Deep: as deep as the manifest reader allows (10,000 levels of JSON), as
	// objects, arrays and anyOf.
	add("nested-properties-4900", tower(4900, str, func(in string) string { return `{"properties":{"a":` + in + `}}` }))
	add("nested-items-9000", tower(9000, str, func(in string) string { return `{"items":` + in + `}` }))
	add("nested-anyOf-4000", tower(4000, str, func(in string) string { return `{"anyOf":[` + in + `,{"type":"null"}]}` }))
	add("nested-const-9000", `{"const":`+strings.Repeat("[", 9000)+"1"+strings.Repeat("]", 9000)+`}`)
	// Numbers TypeScript cannot write, or not exactly.
	add("numbers", `{"type":"object","properties":{"n":{"enum":[1e400,-1e400,-0,0,1E+5,0.1e-400,1e-400,123456789012345678901234567890,
		9007199254740993,9007199254740992,1152921504606846976,0.1,1.5e300,2.2250738585072014e-308,5e-324,1e21,1e-7,-12.5e-3,
		0.1000000000000000000000000001,1e999999999999999999999]},"c":{"const":1e400},"o":{"const":{"big":1e400,"list":[-0,1E+5]}}}}`)
	// Names and strings that are not identifiers, or try to leave their
	// string or comment.
	{
		names := []string{"__proto__", "constructor", "a\"b", `back\slash`, "line\u2028sep", "para\u2029sep", "new\nline",
			"tab\t", "nul\x00", "*/", "/*", "${x}", "`tick`", "'q'", "", " ", "0", "1e3", "-1", "ünï", "\U0001F600", "\u00a0",
			"class", "default", "a.b", "a-b", "$", "_", "<\u003c>&", "\ufeffbom", "\x7f"}
		props := map[string]any{}
		var req []string
		for _, n := range names {
			props[n] = map[string]any{"const": n, "description": "*/ export const pwned" + fmt.Sprint(len(props)) + " = 1; /* " + n}
			req = append(req, n)
		}
		s, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": req,
			"description": "*/ } export const pwnedTop = 1; /*"})
		add("odd-names-and-strings", string(s))
		enum, _ := json.Marshal(map[string]any{"enum": names})
		add("odd-enum-strings", string(enum))
	}
	return out
}
