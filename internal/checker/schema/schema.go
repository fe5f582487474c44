// Package schema holds the JSON Schema of plugin.json (draft 2020-12) and a
// validator that turns schema violations into problems placed on the
// offending key or value, with messages a person understands.
//
// plugin.schema.json is both embedded here and the file editors point at
// (its "errorMessage" keyword is the VS Code extension for custom messages;
// this package uses the same text, so the CLI and the editor agree).
//
// What the schema deliberately leaves to the semantic rules, so that an
// author gets one diagnostic and not two: the ranges of fetchMaxBytes and
// fetchTimeoutMs (fetch-limit-range, which offers a clamp), "sdk" being
// required once nativeTools is present (native-sdk-missing, which offers
// the edit), the shape of a credential's header and {{secret}} template
// (credential-format), whether paths exist or stay inside the directory,
// duplicate or shadowing names, and keys written twice in one object
// (jsonpos.DuplicateKeys: json-duplicate-key, and every reader refuses them).
//
// inputJsonSchema is checked only in outline ("type", "properties",
// "required"), not against the JSON Schema meta-schema: a $ref to the
// meta-schema costs 40–80 ms per 500 tools,
// which alone would break the 50 ms budget of a 1,000-tool manifest, while
// the outline catches the usual slips (a misspelt type, "required": "x").
//
// The package is a leaf: it speaks jsonpos nodes and byte spans.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// JSON is the text of plugin.schema.json.
//
//go:embed plugin.schema.json
var JSON []byte

// ID is the schema's $id.
const ID = "https://plugin-lsp.dev/schema/plugin.schema.json"

// TestsJSON is the text of tests.schema.json, the schema of a plugin's tool
// tests (tests/*.json; run by internal/runner/tooltest), and TestsID its $id.
//
//go:embed tests.schema.json
var TestsJSON []byte

const TestsID = "https://plugin-lsp.dev/schema/tests.schema.json"

// Problem is one schema violation.
type Problem struct {
	Span    jsonpos.Span // the offending key or value
	Pointer string       // JSON pointer of the instance it is about
	Message string
	// Key and Suggestion are set for an unknown key that is probably a
	// typo of the known key Suggestion (not present in its object).
	Key, Suggestion string
}

// Validator validates manifests. It is immutable and safe for concurrent
// use; compile it once per process (or per analysis cache) with New.
type Validator struct {
	compiled *jsonschema.Schema
	doc      any    // the schema as plain JSON, to read properties and messages
	file     string // the document's name in messages ("plugin.json")
}

// New compiles the embedded manifest schema.
func New() (*Validator, error) { return Compile(ID, JSON, "plugin.json") }

// Compile compiles another schema written in the same style (draft
// 2020-12, "errorMessage" texts, "title" on object definitions), whose
// messages name the document file (e.g. "fixtures.json"). It never loads
// anything from the network.
func Compile(id string, text []byte, file string) (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("schema: refusing to load %s (no network)", s)
	}
	if err := c.AddResource(id, bytes.NewReader(text)); err != nil {
		return nil, err
	}
	s, err := c.Compile(id)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	return &Validator{compiled: s, doc: doc, file: file}, nil
}

// Validate checks a parsed manifest. A root that is not an object yields
// nothing (manifest-syntax reports it). Objects cut short by a syntax
// error are not reported for missing keys: the author is still typing.
func (v *Validator) Validate(root *jsonpos.Node) []Problem {
	if root == nil || root.Kind != jsonpos.Object {
		return nil
	}
	var out []Problem
	err := v.compiled.Validate(plain(root))
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		v.walk(root, ve, &out)
	} else if err != nil {
		out = append(out, Problem{Span: root.Span, Message: "schema check failed: " + err.Error()})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Span.Start != out[j].Span.Start {
			return out[i].Span.Start < out[j].Span.Start
		}
		return out[i].Message < out[j].Message
	})
	// Drop exact repeats (several branches may say the same thing).
	dedup := out[:0]
	for i, p := range out {
		if i > 0 && p == out[i-1] {
			continue
		}
		dedup = append(dedup, p)
	}
	return dedup
}

// walk turns the leaves of the error tree into problems. anyOf and oneOf
// are leaves too: their branches' errors would only confuse.
func (v *Validator) walk(root *jsonpos.Node, ve *jsonschema.ValidationError, out *[]Problem) {
	kw := lastToken(ve.KeywordLocation)
	if len(ve.Causes) > 0 && kw != "anyOf" && kw != "oneOf" {
		for _, c := range ve.Causes {
			v.walk(root, c, out)
		}
		return
	}
	loc := ve.InstanceLocation
	if strings.Contains(loc, "%") { // the validator escapes keys as in a URL
		if u, err := url.PathUnescape(loc); err == nil {
			loc = u
		}
	}
	node, ok := root.Lookup(loc)
	if !ok || node == nil {
		return
	}
	if strings.Contains(ve.KeywordLocation, "/propertyNames/") && node.KeySpan.End > node.KeySpan.Start {
		sub := v.subschema(ve.AbsoluteKeywordLocation)
		msg, _ := sub["errorMessage"].(string)
		if msg == "" {
			msg = strings.TrimSpace(ve.Message)
		}
		*out = append(*out, Problem{Span: node.KeySpan, Pointer: loc, Message: fmt.Sprintf("key %q in %q %s", node.Key, DisplayPath(node.Parent.Pointer()), msg)})
		return
	}
	sub := v.subschema(ve.AbsoluteKeywordLocation)
	custom, _ := sub["errorMessage"].(string)
	name := DisplayPath(loc)
	switch kw {
	case "additionalProperties":
		props, _ := sub["properties"].(map[string]any)
		for _, m := range node.Members {
			if _, known := props[m.Key]; known {
				continue
			}
			pr := Problem{Span: m.KeySpan, Pointer: m.Pointer(), Message: unknownKey(m.Key, node, props, sub, v.file)}
			if s := suggest.Closest(m.Key, sortedKeys(props)); s != "" && node.Get(s) == nil {
				pr.Key, pr.Suggestion = m.Key, s
			}
			*out = append(*out, pr)
		}
		return
	case "required":
		if !node.Closed {
			return
		}
		req, _ := sub["required"].([]any)
		for _, r := range req {
			k, _ := r.(string)
			if node.Get(k) != nil {
				continue
			}
			span := node.KeySpan
			if span.End <= span.Start {
				span = jsonpos.Span{Start: node.Span.Start, End: node.Span.Start + 1}
			}
			where := ""
			if name != "" {
				where = fmt.Sprintf(" in %q", name)
			}
			msg := fmt.Sprintf("missing required key %q%s", k, where)
			if d := describeProperty(sub, k); d != "" {
				msg += ": " + d
			}
			*out = append(*out, Problem{Span: span, Pointer: ve.InstanceLocation, Message: msg})
		}
		return
	case "type":
		if custom == "" {
			custom = fmt.Sprintf("must be %s", typeList(sub["type"]))
		}
		custom += ", not " + article(node.Kind)
	case "const", "enum", "pattern", "minLength", "minItems", "anyOf", "oneOf":
		if custom == "" {
			custom = strings.TrimSpace(ve.Message)
		}
	default:
		if custom == "" {
			custom = strings.TrimSpace(ve.Message)
		}
	}
	if name == "" {
		name = v.file
	}
	*out = append(*out, Problem{Span: valueSpan(node), Pointer: ve.InstanceLocation, Message: fmt.Sprintf("%q %s", name, custom)})
}

// valueSpan is the span of a value, or of its key when the value is
// missing (a truncated document).
func valueSpan(n *jsonpos.Node) jsonpos.Span {
	if n.Kind == jsonpos.Invalid && n.KeySpan.End > n.KeySpan.Start {
		return n.KeySpan
	}
	return n.Span
}

// subschema returns the schema object holding the keyword at an absolute
// keyword location ("…#/$defs/tool/properties/name/pattern" → the
// schema of properties/name).
func (v *Validator) subschema(absLoc string) map[string]any {
	frag := absLoc
	if i := strings.IndexByte(frag, '#'); i >= 0 {
		frag = frag[i+1:]
	} else {
		frag = ""
	}
	toks := splitPointer(frag)
	if len(toks) > 0 {
		toks = toks[:len(toks)-1]
	}
	cur := v.doc
	for _, t := range toks {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

// describeProperty returns the first sentence of a property's description.
func describeProperty(sub map[string]any, key string) string {
	props, _ := sub["properties"].(map[string]any)
	p, _ := props[key].(map[string]any)
	d, _ := p["description"].(string)
	for i := 0; i+2 < len(d); i++ {
		if d[i] == '.' && d[i+1] == ' ' && d[i+2] >= 'A' && d[i+2] <= 'Z' {
			d = d[:i+1]
			break
		}
	}
	return strings.TrimSuffix(d, ".")
}

func sortedKeys(props map[string]any) []string {
	known := make([]string, 0, len(props))
	for k := range props {
		known = append(known, k)
	}
	sort.Strings(known)
	return known
}

func unknownKey(key string, obj *jsonpos.Node, props, sub map[string]any, file string) string {
	known := sortedKeys(props)
	if s := suggest.Closest(key, known); s != "" {
		return fmt.Sprintf("unknown key %q (did you mean %q?)", key, s)
	}
	what := ""
	if obj.Parent == nil {
		what = " in " + file
	} else if t, ok := sub["title"].(string); ok {
		switch {
		case strings.HasSuffix(t, "s"): // "capabilities"
			what = " in " + t
		case strings.ContainsRune("aeiou", rune(t[0])):
			what = " in an " + t
		default:
			what = " in a " + t
		}
	} else {
		what = fmt.Sprintf(" in %q", DisplayPath(obj.Pointer()))
	}
	var shown []string
	for _, k := range known {
		if k != "$schema" {
			shown = append(shown, strconv.Quote(k))
		}
	}
	return fmt.Sprintf("unknown key %q%s; expected one of %s", key, what, strings.Join(shown, ", "))
}

// TypeNames is what a JSON Schema "type" keyword names: one type, or the
// strings of a list of them (nil for anything else).
func TypeNames(t any) []string {
	var names []string
	switch t := t.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	}
	return names
}

func typeList(t any) string {
	names := TypeNames(t)
	if len(names) == 0 {
		return "of another type"
	}
	for i, n := range names {
		names[i] = articleName(n)
	}
	return strings.Join(names, " or ")
}

func article(k jsonpos.Kind) string {
	if k == jsonpos.Invalid {
		return "missing"
	}
	return articleName(k.String())
}

func articleName(n string) string {
	switch n {
	case "null":
		return "null"
	case "array", "object", "integer":
		return "an " + n
	case "number":
		return "a number"
	case "boolean":
		return "a boolean"
	}
	return "a " + n
}

// DisplayPath turns a JSON pointer into the path people write:
// /tools/0/name → tools[0].name.
func DisplayPath(ptr string) string {
	var b strings.Builder
	for _, t := range splitPointer(ptr) {
		if _, err := strconv.Atoi(t); err == nil && b.Len() > 0 {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

func splitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	ptr = strings.TrimPrefix(ptr, "/")
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return toks
}

func lastToken(ptr string) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		return ptr[i+1:]
	}
	return ptr
}

// plain converts a node to the values jsonschema expects, keeping number
// text exact (json.Number). Later duplicate keys win, like Node.Get.
// Invalid nodes (a key without a value in a truncated document) are left
// out so that they are reported once, by manifest-syntax.
func plain(n *jsonpos.Node) any {
	switch n.Kind {
	case jsonpos.Null:
		return nil
	case jsonpos.Bool:
		return n.Bool
	case jsonpos.Number:
		return json.Number(n.Raw)
	case jsonpos.String:
		return n.Str
	case jsonpos.Object:
		m := make(map[string]any, len(n.Members))
		for _, c := range n.Members {
			if c.Kind == jsonpos.Invalid {
				continue
			}
			m[c.Key] = plain(c)
		}
		return m
	case jsonpos.Array:
		a := make([]any, len(n.Elems))
		for i, c := range n.Elems {
			a[i] = plain(c)
		}
		return a
	}
	return nil
}
