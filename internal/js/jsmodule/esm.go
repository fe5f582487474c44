// Package esm reads what a compiled native tool module exports, without
// running it: its module kind (ESM or CommonJS), its top-level export
// names and its tools map, each entry with the byte span of its key and
// the properties visible statically.
//
// Architecture invariant: this package is a leaf. It speaks byte offsets
// into the module's bytes and plain structs, and imports nothing from
// analysis; the rules in internal/checker/rules turn its results into
// diagnostics.
//
// # Which export is the tools map
//
// The seed says a module's "tools (or default) export maps each tool name
// to { description, inputJsonSchema?, requires?, needsApproval?,
// execute(args, ctx) }". ReadExports reads it exactly so: the named export
// `tools` when the module has one, otherwise the default export. Either
// export *is* the map: `export default { tools: {…} }` is a map holding
// one tool named "tools" (the rules point that mistake out). The map may
// be written as
//
//	export const tools = { … }             export default { … }
//	const tools = { … }; export { tools }  export default tools
//	export { t as tools }                  export default Object.freeze({ … })
//
// Keys may be identifiers, strings, numbers, computed constant strings
// (`["tg.send"]`, `[NAME]` where NAME is a top-level const string,
// template literals and + of those), shorthand (`{ sendMessage }`), and
// spreads of top-level const objects. Top-level `tools.x = …` and
// `tools["x"] = …` add entries. Anything else that may add names (a
// spread of an unknown value, a call, a non-constant computed key, a
// re-export from another file) is recorded in ToolMap.Unknowable: the
// names cannot be checked statically. When those names live in another
// module (an import, a re-export, `export *`), the Unknown says which
// (From, Name), and Module.Maps / Module.Defs of that module give what a
// caller able to read it finds there: ReadExports itself reads one file.
// A top-level var or let initialised to a string and never reassigned at
// the top level counts as a constant (bundlers turn const into var).
//
// # What may change the tools after their literal
//
// The literal is only what runs if nothing changes it afterwards: the
// search for writes to the exported maps and definitions (an assignment,
// a push, Object.assign, a getter, a spread of a mutable value, a write
// through an alias, a parameter or Object.prototype, a value handed to
// code it cannot follow) is in mutations.go; Module.Mutations lists what
// it finds, Module.Changes reads them for one tools map.
//
// # How the module is parsed
//
// Through the JavaScript front end pages use too, internal/js/jsfront: its
// Parse blanks import and export statements (offsets kept), turns
// `export default <expr>` into `var $default = <expr>` of the same length
// and wraps the module for top-level await; its Model gives the scope of
// every name (imports aside, read from the lexer here) and the value of
// constant expressions, so a key or a description means what it means in
// a page. When goja rejects the module, esbuild decides: if esbuild
// accepts it, it is valid JavaScript our parser cannot read (Unreadable),
// otherwise esbuild's errors are the module's syntax errors. ReadExports
// is the one entry: a check of the text before any parser belongs at its
// top.
package jsmodule

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Span is a half-open byte range [Start, End) in the module's bytes (the
// text layer's).
type Span = text.Span

// Kind is what sort of module the bytes are.
type Kind int

const (
	// Script: neither ESM syntax nor CommonJS markers (exports nothing).
	Script Kind = iota
	// ESM: has import or export statements (or import.meta).
	ESM
	// CommonJS: no ESM syntax, and module.exports, exports.x or require().
	CommonJS
)

func (k Kind) String() string {
	switch k {
	case ESM:
		return "ESM"
	case CommonJS:
		return "CommonJS"
	}
	return "script"
}

// Module is what ReadExports found.
type Module struct {
	Kind Kind
	// CommonJS lists the markers of CommonJS code (module.exports,
	// exports.x, require(…)) whose names are not declared at the top level
	// of the module; an ESM module with markers fails at runtime.
	CommonJS []Mark
	Imports  []Import
	Exports  []Export
	// Tools is the tools map (see the package doc); nil when the module
	// has neither a tools nor a default export.
	Tools *ToolMap
	// Maps holds, for each exported name whose value reads as an object
	// (or comes from another module), that object read as a tools map:
	// what an importing module's spread or re-export of it contains.
	// Tools is one of them.
	Maps map[string]*ToolMap
	// Defs holds every exported object read as a tool definition (Name is
	// the export name, KeySpan where it is exported), and every re-export
	// (Def unset, ValueFrom/ValueName set): what a tools map importing its
	// definitions one by one finds there.
	Defs map[string]*Tool
	// Mutations are the places that may change an exported map or
	// definition after its literal (mutations.go), in source order.
	Mutations []Mutation
	// AlwaysGate lists every mention of alwaysGate in code (an identifier,
	// a property name or the string "alwaysGate"), comments excluded.
	AlwaysGate []Span
	// Errors are syntax errors; when there are any, Exports and Tools hold
	// only what the lexer saw (Tools is nil).
	Errors []SyntaxError
	// Unreadable is set when the module is valid JavaScript that goja's
	// parser cannot read (a newer syntax): nothing beyond the export names
	// can be checked.
	Unreadable *Unknown
}

// IsESM reports whether the module is an ES module free of CommonJS
// leftovers and syntax errors: what the host can import.
func (m *Module) IsESM() bool {
	return m.Kind == ESM && len(m.CommonJS) == 0 && len(m.Errors) == 0
}

// Mark is a piece of code proving something, with its text.
type Mark struct {
	Span Span
	Text string // "module.exports", "exports.send", "require"
}

// Import is one import statement.
type Import struct {
	Span   Span     // the whole statement
	From   string   // the module specifier
	Locals []string // the local bindings it declares
	Names  []ImportName
}

// ImportName is one binding of an import: Imported is the name exported
// by the other module ("default" for a default import, "*" for a
// namespace).
type ImportName struct {
	Local, Imported string
}

// Export is one exported name.
type Export struct {
	Name string
	// Span is the exported name where it is written (the identifier of
	// `export const x`, the `default` keyword, the `as` name), or the
	// `*` of `export * from`.
	Span Span
	// Local is the local binding exported ("" for an expression default);
	// for a re-export, the name exported by From.
	Local string
	// From is the specifier of a re-export (`export { x } from "./y.js"`).
	From string
	// Star is set for `export * from "x"` (Name is "*") and
	// `export * as ns from "x"` (Name is ns).
	Star bool
}

// SyntaxError is one parse error at a byte offset.
type SyntaxError struct {
	Offset  int
	Message string
	// Limit: the module is over a size or nesting limit and was not parsed.
	Limit bool
}

// Unknown is a place that makes the tools map (or a property) unknowable,
// with the reason ("spread of `base`", "call of `makeTools()`").
type Unknown struct {
	Span   Span
	Reason string
	// From and Name are set when the names live in another module: the
	// export Name of the module From (a re-export, an imported binding,
	// a spread of one, or `export *`). A caller that can read that module
	// may follow it (ExportedMap there) instead of giving up.
	From, Name string
}

// ToolMap is the map of tool names to definitions.
type ToolMap struct {
	// Export is "tools" or "default"; ExportSpan is where it is exported.
	Export     string
	ExportSpan Span
	// Span is the map's expression (the object literal when known).
	Span       Span
	Entries    []*Tool
	Unknowable []Unknown
}

// ExportedMap returns the map exported under name, following nothing:
// when the module only re-exports everything from elsewhere
// (`export * from "./x.js"`) it returns a map whose Unknowable entries
// say where to look (From, Name). It returns nil when the module exports
// no such name.
func (m *Module) ExportedMap(name string) *ToolMap {
	if tm, ok := m.Maps[name]; ok {
		return tm
	}
	for _, e := range m.Exports {
		if e.Name == name && !e.Star {
			return nil // exported, but not an object
		}
	}
	var tm *ToolMap
	if name != "default" { // export * never forwards the default export
		for _, e := range m.Exports {
			if e.Star && e.Name == "*" {
				if tm == nil {
					tm = &ToolMap{Export: name, ExportSpan: e.Span, Span: e.Span}
				}
				tm.Unknowable = append(tm.Unknowable, Unknown{Span: e.Span, Reason: fmt.Sprintf("`export * from %q` may provide `%s`", e.From, name), From: e.From, Name: name})
			}
		}
	}
	return tm
}

// Lookup returns the entries named name (the last one wins at runtime).
func (m *ToolMap) Lookup(name string) *Tool {
	if m == nil {
		return nil
	}
	var t *Tool
	for _, e := range m.Entries {
		if e.Name == name {
			t = e
		}
	}
	return t
}

// Tool is one entry of the tools map.
type Tool struct {
	Name     string
	KeySpan  Span // the key as written (quotes or brackets' content included)
	Computed bool
	// Def is set when the value resolves to an object literal (directly,
	// through a top-level const or Object.freeze); the fields below are
	// read from it.
	Def       bool
	ValueSpan Span
	// DefUnknowable lists spreads and calls inside the definition.
	DefUnknowable []Unknown
	// ValueFrom and ValueName are set when the definition is imported:
	// the export ValueName of the module ValueFrom (see Module.Defs).
	ValueFrom, ValueName string

	Description bool
	// DescriptionText is the description when it is a string constant.
	DescriptionText string
	// DescriptionSpan is the description's value as written (a string
	// literal, a template, a constant's name); InputSchemaSpan the
	// inputJsonSchema value's. Zero when absent.
	DescriptionSpan Span
	InputSchemaSpan Span
	InputSchema     bool
	// InputSchemaValue is the inputJsonSchema as JSON data (numbers as
	// json.Number) when it is written as data (InputSchemaStatic); nil
	// otherwise.
	InputSchemaValue  any
	InputSchemaStatic bool
	Execute           bool
	Requires          []Str
	RequiresKnown     bool // requires is absent or an array of string literals
	RequiresSpan      Span // the requires value
	NeedsApproval     *Approval
	AlwaysGateSpan    *Span // the alwaysGate key, when the definition has one
}

// Str is a string value with its span (quotes included).
type Str struct {
	Value string
	Span  Span
}

// Approval is a needsApproval property.
type Approval struct {
	KeySpan   Span
	ValueSpan Span
	// Kind: "boolean", "function", "object", "array", "string", "other".
	Kind  string
	Value bool // the literal for "boolean"
	// Names are the string keys of an object or the strings of an array:
	// the tools the value tries to set a gate for.
	Names []Str
}
