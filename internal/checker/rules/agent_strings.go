package rules

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	ptext "github.com/plugin-lsp/plugin-lsp/internal/text"
)

// agentString is one string an agent or a reviewer reads (docs/agent-text.md):
// a description, a schema title, an enum value, a name. text-hidden-characters
// reads every one, text-instructions the prose ones.
type agentString struct {
	File string
	// At names the string for allowInstructions and messages:
	// "description", "tools.search.description",
	// "tools.search.inputJsonSchema/properties/q/description",
	// "nativeTools.send.description".
	At string
	// Value is the string as the agent receives it (decoded).
	Value string
	// Span is the literal as written (quotes included).
	Span checker.Span
	// offs maps a byte of Value to the file offset of what wrote it (an
	// escape or the character), with one more entry for the closing
	// quote; nil when the string is not one literal (a constant's name, a
	// template with substitutions): positions are then the whole Span.
	offs []int
	// Prose is descriptive text (a description or a title).
	Prose bool
	// Src is the text of File.
	Src []byte
}

// spanOf returns the file span of Value[start:end].
func (a agentString) spanOf(start, end int) checker.Span {
	if a.offs == nil || end >= len(a.offs) || start > end {
		return a.Span
	}
	return checker.Span{Start: a.offs[start], End: a.offs[end]}
}

// mapped reports whether spans inside the string are exact.
func (a agentString) mapped() bool { return a.offs != nil }

// maxSchemaDepth bounds the walk of an input schema.
const maxSchemaDepth = 64

// agentStrings returns every agent-facing string of the plugin: in
// plugin.json the plugin's description, each tool's name and description
// and the strings of its input schema (property names, title,
// description, enum, const, examples, default), the native names; in
// each native module the description of each declared tool.
func agentStrings(pass *checker.Pass) []agentString {
	p := pass.Plugin
	m := p.Manifest
	var out []agentString
	text := p.ManifestFile.Text
	add := func(n *jsonpos.Node, at string, prose bool) {
		if n == nil || n.Kind != jsonpos.String {
			return
		}
		out = append(out, manifestString(text, n.Str, checker.SpanOf(n), at, prose))
	}
	if m.Root != nil {
		add(m.Root.Get("description"), "description", true)
	}
	for i, t := range m.Tools {
		name, ok := checker.Str(t.Name)
		label := "tools." + name
		if !ok || name == "" {
			label = "tools." + strconv.Itoa(i)
		}
		add(t.Name, label+".name", false)
		add(t.Description, label+".description", true)
		if t.InputSchema != nil {
			walkSchema(text, t.InputSchema, label+".inputJsonSchema", "", 0, &out)
		}
	}
	for _, nt := range m.NativeTools {
		for _, n := range nt.Names {
			s, _ := checker.Str(n)
			add(n, "nativeTools."+s+".name", false)
		}
	}
	for _, mod := range nativeModules(pass) {
		em := mod.toolMap(pass)
		if em == nil {
			continue
		}
		for name := range mod.declared() {
			var e *effTool
			for i := range em.Entries {
				if em.Entries[i].Name == name && em.Entries[i].Def != nil {
					e = &em.Entries[i]
				}
			}
			if e == nil {
				continue
			}
			f, err := p.ReadFile(e.DefFile)
			if err != nil {
				continue
			}
			if e.Def.DescriptionSpan.End > e.Def.DescriptionSpan.Start {
				out = append(out, jsString(f.Text, e.Def.DescriptionText, e.Def.DescriptionSpan, e.DefFile, "nativeTools."+name+".description"))
			}
			if sp := e.Def.InputSchemaSpan; sp.End > sp.Start && sp.End <= len(f.Text) {
				out = append(out, nativeSchemaText(f.Text, e.Def.InputSchemaValue, sp, e.DefFile, "nativeTools."+name+".inputJsonSchema"))
			}
		}
	}
	return sortAgentStrings(out)
}

// sortAgentStrings orders the strings by file and place (native names
// come from a map), once each (two modules may share a definition).
func sortAgentStrings(out []agentString) []agentString {
	sort.SliceStable(out, func(i, j int) bool { return lessAgent(out[i], out[j]) })
	var kept []agentString
	for i, a := range out {
		if i > 0 && a.File == out[i-1].File && a.Span == out[i-1].Span && a.File != checker.ManifestName {
			continue
		}
		kept = append(kept, a)
	}
	return kept
}

func lessAgent(a, b agentString) bool {
	if (a.File == checker.ManifestName) != (b.File == checker.ManifestName) {
		return a.File == checker.ManifestName
	}
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Span.Start < b.Span.Start
}

// walkSchema collects the agent-facing strings of an input schema.
func walkSchema(text []byte, n *jsonpos.Node, label, ptr string, depth int, out *[]agentString) {
	if n == nil || n.Kind != jsonpos.Object || depth > maxSchemaDepth {
		return
	}
	for _, mem := range n.Members {
		at := label + ptr + "/" + mem.Key
		switch mem.Key {
		case "title", "description":
			if mem.Kind == jsonpos.String {
				*out = append(*out, manifestString(text, mem.Str, mem.Span, at, true))
			}
		case "enum", "examples":
			for i, e := range mem.Elems {
				if e.Kind == jsonpos.String {
					*out = append(*out, manifestString(text, e.Str, e.Span, at+"/"+strconv.Itoa(i), false))
				}
			}
		case "const", "default":
			if mem.Kind == jsonpos.String {
				*out = append(*out, manifestString(text, mem.Str, mem.Span, at, false))
			}
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			if mem.Kind != jsonpos.Object {
				continue
			}
			for _, prop := range mem.Members {
				if mem.Key == "properties" {
					*out = append(*out, manifestString(text, prop.Key, prop.KeySpan, at+"/"+ptext.Reveal(prop.Key)+" (name)", false))
				}
				walkSchema(text, prop, label, ptr+"/"+mem.Key+"/"+jsonPointerEscape(ptext.Reveal(prop.Key)), depth+1, out)
			}
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames":
			walkSchema(text, mem, label, ptr+"/"+mem.Key, depth+1, out)
		case "anyOf", "oneOf", "allOf", "prefixItems":
			for i, e := range mem.Elems {
				walkSchema(text, e, label, ptr+"/"+mem.Key+"/"+strconv.Itoa(i), depth+1, out)
			}
		}
	}
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func jsonPointerEscape(s string) string { return pointerEscaper.Replace(s) }

// manifestString is a string of plugin.json; its bytes are mapped to the
// source when a diagnostic needs a place inside it (withOffsets).
func manifestString(text []byte, value string, span checker.Span, at string, prose bool) agentString {
	return agentString{File: checker.ManifestName, At: at, Value: value, Span: span, Prose: prose, Src: text}
}

// jsString is a native tool's description in its module: mapped when it
// is one string literal (or a template without substitutions).
// nativeSchemaText is the text of a native tool's inputJsonSchema in its
// module as one string: every property name and string of the schema as
// decoded (escapes such as \u200b included) when it is written as data,
// else the schema's source. Its invisible characters written as they are
// are placed in the source; ones written as escapes are reported on the
// schema. Not prose: text-instructions reads the manifest's schemas only.
func nativeSchemaText(text []byte, value any, span checker.Span, file, at string) agentString {
	var b strings.Builder
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 64 || b.Len() > 1<<20 {
			return
		}
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case []any:
			for _, y := range x {
				walk(y, depth+1)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				b.WriteString(k)
				b.WriteByte('\n')
				walk(x[k], depth+1)
			}
		}
	}
	if value != nil {
		walk(value, 0)
	} else {
		b.Write(text[span.Start:span.End])
	}
	return agentString{File: file, At: at, Value: b.String(), Span: span, Src: text}
}

func jsString(text []byte, value string, span checker.Span, file, at string) agentString {
	return agentString{File: file, At: at, Value: value, Span: span, Prose: true, Src: text}
}

// withOffsets maps the string's bytes to the source, when the span is one
// literal that decodes to Value.
func (a agentString) withOffsets() agentString {
	if a.offs != nil || a.Src == nil || a.Span.Start < 0 || a.Span.End > len(a.Src) || a.Span.Start >= a.Span.End {
		return a
	}
	if dec, offs, ok := decodeLiteral(a.Src[a.Span.Start:a.Span.End]); ok && dec == a.Value {
		for i := range offs {
			offs[i] += a.Span.Start
		}
		a.offs = offs
	}
	return a
}

// decodeLiteral decodes a JSON or JavaScript string literal ("…", '…' or
// a template without substitutions) and maps each decoded byte to the
// offset in raw of the character or escape that wrote it; the last entry
// is the closing quote. ok is false for anything else.
func decodeLiteral(raw []byte) (string, []int, bool) {
	if len(raw) < 2 {
		return "", nil, false
	}
	q := raw[0]
	if (q != '"' && q != '\'' && q != '`') || raw[len(raw)-1] != q {
		return "", nil, false
	}
	var b []byte
	var offs []int
	emit := func(at int, s []byte) {
		for range s {
			offs = append(offs, at)
		}
		b = append(b, s...)
	}
	emitRune := func(at int, r rune) { emit(at, utf8.AppendRune(nil, r)) }
	end := len(raw) - 1
	for i := 1; i < end; {
		c := raw[i]
		if q == '`' && c == '$' && i+1 < end && raw[i+1] == '{' {
			return "", nil, false
		}
		if c != '\\' {
			_, size := utf8.DecodeRune(raw[i:end])
			emit(i, raw[i:i+size])
			i += size
			continue
		}
		if i+1 >= end {
			return "", nil, false
		}
		start := i
		e := raw[i+1]
		i += 2
		switch e {
		case 'n':
			emit(start, []byte{'\n'})
		case 't':
			emit(start, []byte{'\t'})
		case 'r':
			emit(start, []byte{'\r'})
		case 'b':
			emit(start, []byte{'\b'})
		case 'f':
			emit(start, []byte{'\f'})
		case 'v':
			emit(start, []byte{'\v'})
		case '0':
			emit(start, []byte{0})
		case '\n': // a line continuation writes nothing
		case '\r':
			if i < end && raw[i] == '\n' {
				i++
			}
		case 'x':
			if i+2 > end {
				return "", nil, false
			}
			v, err := strconv.ParseUint(string(raw[i:i+2]), 16, 8)
			if err != nil {
				return "", nil, false
			}
			emitRune(start, rune(v))
			i += 2
		case 'u':
			r, n, ok := unicodeEscape(raw[i:end])
			if !ok {
				return "", nil, false
			}
			i += n
			if utf16.IsSurrogate(r) && r < 0xDC00 && i+1 < end && raw[i] == '\\' && raw[i+1] == 'u' {
				if r2, n2, ok := unicodeEscape(raw[i+2 : end]); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
					r = utf16.DecodeRune(r, r2)
					i += 2 + n2
				}
			}
			emitRune(start, r)
		default:
			_, size := utf8.DecodeRune(raw[i-1 : end])
			emit(start, raw[i-1:i-1+size])
			i += size - 1
		}
	}
	offs = append(offs, end)
	return string(b), offs, true
}

// unicodeEscape reads the part after \u: four hex digits or {hex}.
func unicodeEscape(s []byte) (rune, int, bool) {
	if len(s) > 0 && s[0] == '{' {
		j := 1
		for j < len(s) && s[j] != '}' && j < 10 {
			j++
		}
		if j >= len(s) || s[j] != '}' {
			return 0, 0, false
		}
		v, err := strconv.ParseUint(string(s[1:j]), 16, 32)
		if err != nil || v > utf8.MaxRune {
			return 0, 0, false
		}
		return rune(v), j + 1, true
	}
	if len(s) < 4 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(string(s[:4]), 16, 16)
	if err != nil {
		return 0, 0, false
	}
	return rune(v), 4, true
}
