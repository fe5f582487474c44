// Package jsonpos parses JSON into a tree whose every key and value keeps its
// byte range in the source.
//
// Parsing never fails: on a syntax error (a truncated document, a stray
// comma, a document being typed) it returns the tree built up to the error,
// with the open containers closed at the error offset, and the error itself.
// Callers therefore always have something to point diagnostics at.
package jsonpos

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Kind is the JSON type of a Node.
type Kind uint8

const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Object
	Array
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Object:
		return "object"
	case Array:
		return "array"
	}
	return "invalid"
}

// Span is a half-open byte range [Start, End) in the source (the text
// layer's).
type Span = text.Span

// Node is one JSON value. Members of an object carry their key.
type Node struct {
	Kind Kind
	// Span covers the value; for an object or array it runs from the
	// opening to the closing bracket (or to the error offset when the
	// document is truncated).
	Span Span
	// Key and KeySpan are set when the node is a member of an object;
	// KeySpan includes the quotes.
	Key     string
	KeySpan Span
	// Index is the position in the parent array or object.
	Index int
	// Str holds the decoded string; Raw the literal text of a number,
	// boolean or null.
	Str  string
	Raw  string
	Bool bool
	// Members (object, in source order, duplicates kept) and Elems (array).
	Members []*Node
	Elems   []*Node
	Parent  *Node
	// Closed is false for a container cut short by a syntax error.
	Closed bool
}

// SyntaxError is a JSON syntax error at a byte offset.
type SyntaxError struct {
	Offset  int
	Message string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Message) }

// Get returns the member named key (the last one when duplicated), or nil.
// It is safe to call on a nil node or a node that is not an object.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i]
		}
	}
	return nil
}

// Len returns the number of members or elements.
func (n *Node) Len() int {
	if n == nil {
		return 0
	}
	return len(n.Members) + len(n.Elems)
}

// Children returns the members or elements of a container.
func (n *Node) Children() []*Node {
	if n == nil {
		return nil
	}
	if n.Kind == Object {
		return n.Members
	}
	return n.Elems
}

// IsString reports whether n is a string node.
func (n *Node) IsString() bool { return n != nil && n.Kind == String }

// Int returns the integer value of a number node.
func (n *Node) Int() (int64, bool) {
	if n == nil || n.Kind != Number {
		return 0, false
	}
	v, err := strconv.ParseInt(n.Raw, 10, 64)
	if err == nil {
		return v, true
	}
	f, err := strconv.ParseFloat(n.Raw, 64)
	if err != nil || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// Pointer returns the RFC 6901 JSON pointer of n.
func (n *Node) Pointer() string {
	if n == nil || n.Parent == nil {
		return ""
	}
	var tok string
	if n.Parent.Kind == Object {
		tok = strings.NewReplacer("~", "~0", "/", "~1").Replace(n.Key)
	} else {
		tok = strconv.Itoa(n.Index)
	}
	return n.Parent.Pointer() + "/" + tok
}

// Lookup follows an RFC 6901 JSON pointer from n. It returns the deepest
// node reached and whether the whole pointer resolved.
func (n *Node) Lookup(ptr string) (*Node, bool) {
	if ptr == "" {
		return n, n != nil
	}
	cur := n
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		var next *Node
		switch cur.Kind {
		case Object:
			next = cur.Get(tok)
		case Array:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(cur.Elems) {
				next = cur.Elems[i]
			}
		}
		if next == nil {
			return cur, false
		}
		cur = next
	}
	return cur, true
}

// Interface converts the node to plain Go values (map[string]any, []any,
// string, float64 via json.Number text, bool, nil). Later duplicate keys win.
func (n *Node) Interface() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Null:
		return nil
	case Bool:
		return n.Bool
	case Number:
		f, _ := strconv.ParseFloat(n.Raw, 64)
		return f
	case String:
		return n.Str
	case Object:
		m := make(map[string]any, len(n.Members))
		for _, c := range n.Members {
			m[c.Key] = c.Interface()
		}
		return m
	case Array:
		a := make([]any, len(n.Elems))
		for i, c := range n.Elems {
			a[i] = c.Interface()
		}
		return a
	}
	return nil
}

// Parse parses data. It returns the root (nil only when no value started)
// and the first syntax error, if any. Everything before the error is in the
// tree. Duplicate object keys are kept, not rejected: see DuplicateKeys.
func Parse(data []byte) (*Node, *SyntaxError) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	var root *Node
	var stack []*Node
	var pendingKey *Node // an object member whose key was read, value not yet
	prevEnd := 0
	fail := func(off int, msg string) (*Node, *SyntaxError) {
		for _, c := range stack {
			c.Span.End = off
		}
		if pendingKey != nil && pendingKey.Kind == Invalid {
			// A key with no value: keep it so that positions still point at it.
			pendingKey.Span = Span{Start: off, End: off}
		}
		return root, &SyntaxError{Offset: off, Message: msg}
	}
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			if err == io.EOF {
				if root == nil {
					return nil, &SyntaxError{Offset: len(data), Message: "empty document: expected a JSON object"}
				}
				return root, nil
			}
			off, msg := describe(err, data)
			return fail(off, msg)
		}
		end := int(dec.InputOffset())
		start := skipSeparators(data, prevEnd, end)
		prevEnd = end
		kind := tok.Kind()
		var parent *Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		// A string token inside an object in key position is a key.
		if parent != nil && parent.Kind == Object && pendingKey == nil && kind == '"' {
			pendingKey = &Node{Key: tok.String(), KeySpan: Span{Start: start, End: end}, Parent: parent, Index: len(parent.Members)}
			parent.Members = append(parent.Members, pendingKey)
			continue
		}
		if kind == '}' || kind == ']' {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			c.Span.End = end
			c.Closed = true
			continue
		}
		var n *Node
		switch {
		case pendingKey != nil:
			n = pendingKey
			pendingKey = nil
		case parent != nil:
			n = &Node{Parent: parent, Index: len(parent.Elems)}
			parent.Elems = append(parent.Elems, n)
		default:
			n = &Node{}
			root = n
		}
		n.Span = Span{Start: start, End: end}
		switch kind {
		case 'n':
			n.Kind, n.Raw = Null, "null"
		case 't', 'f':
			n.Kind, n.Bool, n.Raw = Bool, kind == 't', tok.String()
		case '0':
			n.Kind, n.Raw = Number, tok.String()
		case '"':
			n.Kind, n.Str = String, tok.String()
		case '{':
			n.Kind = Object
			stack = append(stack, n)
		case '[':
			n.Kind = Array
			stack = append(stack, n)
		}
	}
}

// skipSeparators returns the first offset in data[from:to] that is not
// whitespace, ':' or ',': the start of the token that ends at to.
func skipSeparators(data []byte, from, to int) int {
	for from < to {
		switch data[from] {
		case ' ', '\t', '\r', '\n', ':', ',':
			from++
		default:
			return from
		}
	}
	return from
}

// describe turns a decoder error into an offset and a sentence.
func describe(err error, data []byte) (int, string) {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		off := int(se.ByteOffset)
		if off > len(data) {
			off = len(data)
		}
		if errors.Is(se.Err, io.ErrUnexpectedEOF) || off >= len(data) {
			return len(data), "unexpected end of JSON: the document is incomplete"
		}
		msg := se.Err.Error()
		msg = strings.TrimPrefix(msg, "jsontext: ")
		if off < len(data) {
			msg = fmt.Sprintf("%s (at %s)", msg, describeByte(data[off]))
		}
		return off, msg
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return len(data), "unexpected end of JSON: the document is incomplete"
	}
	return len(data), err.Error()
}

func describeByte(b byte) string {
	if b >= 0x20 && b < 0x7f {
		return strconv.Quote(string(b))
	}
	return fmt.Sprintf("byte 0x%02x", b)
}

// Duplicate is a key written twice in one object: First is the member
// that came first, Dup a later one with the same key. A document with one
// parses two ways (most readers keep the last, some the first), so every
// reader of the project refuses it: the one check is DuplicateKeys.
type Duplicate struct{ First, Dup *Node }

// DuplicateKeys returns every member whose key already appeared earlier in
// the same object, anywhere in the tree, with the first one, in source
// order of the duplicates. Keys compare exactly (after JSON unescaping:
// "a" and "\u0061" are the same key). The walk is iterative, so a deep
// document cannot exhaust the stack.
func DuplicateKeys(root *Node) []Duplicate {
	var out []Duplicate
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		switch ms := n.Members; {
		case n.Kind != Object || len(ms) < 2:
		case len(ms) <= smallObject: // compare pairwise: cheaper than a map
			for j := 1; j < len(ms); j++ {
				for i := 0; i < j; i++ {
					if ms[i].Key == ms[j].Key { // the earliest i: the first one
						out = append(out, Duplicate{First: ms[i], Dup: ms[j]})
						break
					}
				}
			}
		default:
			first := make(map[string]*Node, len(ms))
			for _, m := range ms {
				if f, ok := first[m.Key]; ok {
					out = append(out, Duplicate{First: f, Dup: m})
					continue
				}
				first[m.Key] = m
			}
		}
		stack = append(stack, n.Children()...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dup.KeySpan.Start < out[j].Dup.KeySpan.Start })
	return out
}

// smallObject is the member count up to which DuplicateKeys compares keys
// pairwise instead of building a map.
const smallObject = 16

// DuplicateKeyError is the first duplicate key of a document, with both
// positions (1-based line:column, the column in bytes).
type DuplicateKeyError struct {
	Key, Pointer string
	First, Dup   Span // the keys' spans (quotes included)
	FirstLine    int
	FirstCol     int
	DupLine      int
	DupCol       int
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.DupLine, e.DupCol, e.Message())
}

// Message is the error without its leading position: what a diagnostic at
// the duplicate says.
func (e *DuplicateKeyError) Message() string {
	at := ""
	if strings.Count(e.Pointer, "/") > 1 { // not a top-level key: say where
		at = " (" + e.Pointer + ")"
	}
	return fmt.Sprintf("duplicate key %q%s: first written at %d:%d, again at %d:%d; a key must appear once (readers disagree on which one counts), so the file is refused: keep one", e.Key, at, e.FirstLine, e.FirstCol, e.DupLine, e.DupCol)
}

// NewDuplicateKeyError describes d in data (the text root was parsed from).
func NewDuplicateKeyError(data []byte, d Duplicate) *DuplicateKeyError {
	ix := text.NewIndex(data)
	f, g := ix.Position(d.First.KeySpan.Start), ix.Position(d.Dup.KeySpan.Start)
	return &DuplicateKeyError{Key: d.Dup.Key, Pointer: d.Dup.Pointer(), First: d.First.KeySpan, Dup: d.Dup.KeySpan,
		FirstLine: f.Line + 1, FirstCol: f.Col8 + 1, DupLine: g.Line + 1, DupCol: g.Col8 + 1}
}

// CheckDuplicates returns the first duplicate key of root (parsed from
// data) as an error, or nil.
func CheckDuplicates(data []byte, root *Node) error {
	if ds := DuplicateKeys(root); len(ds) > 0 {
		return NewDuplicateKeyError(data, ds[0])
	}
	return nil
}

// CheckDuplicatesIn parses data and returns its first duplicate key as an
// error, or nil (a syntax error is left to the caller's own decoder, which
// reads the same bytes next): for readers that decode with encoding/json,
// which keeps the last of two keys without a word.
func CheckDuplicatesIn(data []byte) error {
	root, _ := Parse(data)
	return CheckDuplicates(data, root)
}
