// Package jsonedit computes formatting-preserving edits of a JSON document
// (plugin.json, fixtures.json): append to an array, insert an object member,
// remove an element, replace a value, create a missing path. Each function
// returns one checker.Edit that touches only the bytes it must, keeps the
// author's indentation, line endings and spacing, and leaves the document
// valid JSON.
package jsonedit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// style is the formatting detected around a container.
type style struct {
	nl        string // "\n" or "\r\n"
	unit      string // one indentation level
	multiline bool   // children on their own lines
	colon     string // between key and value, e.g. ": "
	comma     string // after a comma in inline containers, e.g. " "
	pad       bool   // inline object padded inside braces: "{ "a": 1 }"
}

// AppendToArray appends valueJSON (any JSON text) as the last element of arr.
func AppendToArray(f *checker.File, arr *jsonpos.Node, valueJSON string) (checker.Edit, error) {
	if arr == nil || arr.Kind != jsonpos.Array {
		return checker.Edit{}, fmt.Errorf("not an array")
	}
	if !arr.Closed {
		return checker.Edit{}, fmt.Errorf("the array is not closed")
	}
	val, err := jsonpos.Parse([]byte(valueJSON))
	if err != nil {
		return checker.Edit{}, fmt.Errorf("invalid value %s: %s", valueJSON, err.Message)
	}
	st := detect(f, arr)
	return insertChild(f, arr, st, "", val), nil
}

// InsertMember adds "key": valueJSON as the last member of obj.
func InsertMember(f *checker.File, obj *jsonpos.Node, key, valueJSON string) (checker.Edit, error) {
	if obj == nil || obj.Kind != jsonpos.Object {
		return checker.Edit{}, fmt.Errorf("not an object")
	}
	if !obj.Closed {
		return checker.Edit{}, fmt.Errorf("the object is not closed")
	}
	val, err := jsonpos.Parse([]byte(valueJSON))
	if err != nil {
		return checker.Edit{}, fmt.Errorf("invalid value %s: %s", valueJSON, err.Message)
	}
	st := detect(f, obj)
	return insertChild(f, obj, st, quote(key)+st.colon, val), nil
}

// Replace replaces the value of n with valueJSON, formatted like its
// surroundings.
func Replace(f *checker.File, n *jsonpos.Node, valueJSON string) (checker.Edit, error) {
	if n == nil || n.Kind == jsonpos.Invalid {
		return checker.Edit{}, fmt.Errorf("no value to replace")
	}
	val, err := jsonpos.Parse([]byte(valueJSON))
	if err != nil {
		return checker.Edit{}, fmt.Errorf("invalid value %s: %s", valueJSON, err.Message)
	}
	var st style
	if n.Parent != nil {
		st = detect(f, n.Parent)
	} else {
		st = detect(f, n)
	}
	text := render(val, st, lineIndent(f, n.Span.Start), !isSmall(val) && st.multiline)
	return checker.Edit{File: f.Path, Span: n.Span, NewText: text}, nil
}

// RemoveElement removes an array element or object member together with
// the comma and the line it stood on.
func RemoveElement(f *checker.File, n *jsonpos.Node) (checker.Edit, error) {
	if n == nil || n.Parent == nil {
		return checker.Edit{}, fmt.Errorf("nothing to remove")
	}
	sibs := n.Parent.Children()
	i := n.Index
	if i >= len(sibs) || sibs[i] != n {
		return checker.Edit{}, fmt.Errorf("node is not a child of its parent")
	}
	start := startOf(n)
	end := n.Span.End
	t := f.Text
	switch {
	case len(sibs) == 1:
		// Leave an empty container: "[ ]" → "[]".
		start = n.Parent.Span.Start + 1
		end = n.Parent.Span.End - 1
		if !n.Parent.Closed {
			end = n.Span.End
		}
	case i < len(sibs)-1:
		// Up to the next sibling: takes the comma and the whitespace. On a
		// multiline layout, take the whole line instead.
		next := startOf(sibs[i+1])
		ls := lineStart(f, start)
		if onlySpace(t[ls:start]) && bytes.ContainsRune(t[end:next], '\n') {
			start = ls
			end = lineStart(f, next)
		} else {
			end = next
		}
	default:
		// The last one: from the end of the previous sibling.
		start = sibs[i-1].Span.End
	}
	return checker.Edit{File: f.Path, Span: checker.Span{Start: start, End: end}}, nil
}

// AddToPath appends valueJSON to the array at path (keys from root), creating
// the objects and the array that are missing. Example: path
// ["capabilities", "fetch"] and value `"api.x.org"`.
func AddToPath(f *checker.File, root *jsonpos.Node, path []string, valueJSON string) (checker.Edit, error) {
	if root == nil || root.Kind != jsonpos.Object {
		return checker.Edit{}, fmt.Errorf("the document is not an object")
	}
	node := root
	for i, key := range path {
		child := node.Get(key)
		if child == nil {
			// Build the rest: {"k2": {"k3": [value]}} inside node as key.
			v := "[" + valueJSON + "]"
			for j := len(path) - 1; j > i; j-- {
				v = "{" + quote(path[j]) + ": " + v + "}"
			}
			return InsertMember(f, node, key, v)
		}
		if i == len(path)-1 {
			if child.Kind != jsonpos.Array {
				return checker.Edit{}, fmt.Errorf("%q is a %s, not an array", strings.Join(path[:i+1], "."), child.Kind)
			}
			return AppendToArray(f, child, valueJSON)
		}
		if child.Kind != jsonpos.Object {
			return checker.Edit{}, fmt.Errorf("%q is a %s, not an object", strings.Join(path[:i+1], "."), child.Kind)
		}
		node = child
	}
	return checker.Edit{}, fmt.Errorf("empty path")
}

// insertChild inserts prefix+value after the last child of c (or inside an
// empty c).
func insertChild(f *checker.File, c *jsonpos.Node, st style, prefix string, val *jsonpos.Node) checker.Edit {
	kids := c.Children()
	closeAt := c.Span.End - 1 // the closing bracket
	if len(kids) == 0 {
		open := c.Span.Start + 1
		base := lineIndent(f, c.Span.Start)
		if st.multiline {
			child := base + st.unit
			text := st.nl + child + prefix + render(val, st, child, !isSmall(val)) + st.nl + base
			return checker.Edit{File: f.Path, Span: checker.Span{Start: open, End: closeAt}, NewText: text}
		}
		inner := prefix + render(val, st, base, false)
		if c.Kind == jsonpos.Object && st.pad {
			inner = " " + inner + " "
		}
		return checker.Edit{File: f.Path, Span: checker.Span{Start: open, End: closeAt}, NewText: inner}
	}
	last := kids[len(kids)-1]
	at := last.Span.End
	if st.multiline {
		child := lineIndent(f, startOf(last))
		text := "," + st.nl + child + prefix + render(val, st, child, !isSmall(val))
		return checker.Edit{File: f.Path, Span: checker.Span{Start: at, End: at}, NewText: text}
	}
	text := "," + st.comma + prefix + render(val, st, lineIndent(f, at), false)
	return checker.Edit{File: f.Path, Span: checker.Span{Start: at, End: at}, NewText: text}
}

// detect reads the formatting of container c and of the file.
func detect(f *checker.File, c *jsonpos.Node) style {
	t := f.Text
	st := style{nl: "\n", unit: "  ", colon: ": ", comma: " "}
	if bytes.Contains(t, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	st.unit = indentUnit(t)
	kids := c.Children()
	if len(kids) > 0 {
		first := startOf(kids[0])
		st.multiline = bytes.ContainsRune(t[c.Span.Start:first], '\n')
		if len(kids) > 1 {
			between := t[kids[0].Span.End:startOf(kids[1])]
			st.comma = strings.TrimLeft(string(between), ",")
			if strings.ContainsAny(st.comma, "\r\n") || strings.TrimSpace(st.comma) != "" {
				st.comma = " "
			}
		}
		if c.Kind == jsonpos.Object {
			k := kids[0]
			if k.KeySpan.End <= k.Span.Start && k.Kind != jsonpos.Invalid {
				if sep := string(t[k.KeySpan.End:k.Span.Start]); strings.TrimSpace(sep) == ":" && !strings.ContainsAny(sep, "\r\n") {
					st.colon = sep
				}
			}
			st.pad = !st.multiline && first > c.Span.Start+1 && t[c.Span.Start+1] == ' '
		}
	} else if c.Kind == jsonpos.Object {
		// An empty object is opened up when its parent is laid out on
		// several lines (or it is the whole document); arrays stay inline.
		st.pad = true
		st.multiline = c.Parent == nil || detect(f, c.Parent).multiline
	}
	return st
}

// indentUnit guesses one indentation level from the first indented line.
func indentUnit(t []byte) string {
	for _, line := range bytes.Split(t, []byte("\n")) {
		n := 0
		for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			n++
		}
		if n > 0 && n < len(line) {
			if line[0] == '\t' {
				return "\t"
			}
			if n > 8 {
				n = 2
			}
			return strings.Repeat(" ", n)
		}
	}
	return "  "
}

// render writes val in the style: pretty (one child per line, children at
// indent+unit) or inline ({ "a": 1, "b": [1, 2] }).
func render(val *jsonpos.Node, st style, indent string, pretty bool) string {
	var b strings.Builder
	var w func(n *jsonpos.Node, indent string, pretty bool)
	w = func(n *jsonpos.Node, indent string, pretty bool) {
		switch n.Kind {
		case jsonpos.String:
			b.WriteString(quote(n.Str))
		case jsonpos.Object, jsonpos.Array:
			open, close := "[", "]"
			if n.Kind == jsonpos.Object {
				open, close = "{", "}"
			}
			kids := n.Children()
			if len(kids) == 0 {
				b.WriteString(open + close)
				return
			}
			b.WriteString(open)
			childIndent := indent + st.unit
			for i, k := range kids {
				if i > 0 {
					b.WriteString(",")
				}
				if pretty {
					b.WriteString(st.nl + childIndent)
				} else if i > 0 || n.Kind == jsonpos.Object {
					b.WriteString(" ")
				}
				if n.Kind == jsonpos.Object {
					b.WriteString(quote(k.Key) + st.colon)
				}
				w(k, childIndent, pretty && !isSmall(k))
			}
			if pretty {
				b.WriteString(st.nl + indent)
			} else if n.Kind == jsonpos.Object {
				b.WriteString(" ")
			}
			b.WriteString(close)
		default:
			b.WriteString(n.Raw)
		}
	}
	w(val, indent, pretty)
	return b.String()
}

// isSmall reports whether a value reads well on one line: a scalar, or a
// container of at most three scalars.
func isSmall(n *jsonpos.Node) bool {
	kids := n.Children()
	if n.Kind != jsonpos.Object && n.Kind != jsonpos.Array {
		return true
	}
	if len(kids) > 3 {
		return false
	}
	for _, k := range kids {
		if k.Kind == jsonpos.Object || k.Kind == jsonpos.Array {
			return false
		}
	}
	return true
}

// quote writes a JSON string (Go's strconv.Quote is not JSON: it escapes
// differently).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// startOf is where a child begins: its key for an object member.
func startOf(n *jsonpos.Node) int {
	if n.KeySpan.End > n.KeySpan.Start {
		return n.KeySpan.Start
	}
	return n.Span.Start
}

// lineIndent returns the leading whitespace of the line holding off.
func lineIndent(f *checker.File, off int) string {
	t := f.Text
	ls := lineStart(f, off)
	e := ls
	for e < len(t) && (t[e] == ' ' || t[e] == '\t') {
		e++
	}
	return string(t[ls:e])
}

// lineStart returns the offset of the line holding off, from the file's
// line index (a search back from off is quadratic over a one-line file).
func lineStart(f *checker.File, off int) int {
	off = min(max(off, 0), len(f.Text))
	return off - f.Position(off).Col8
}

func onlySpace(b []byte) bool { return len(bytes.TrimLeft(b, " \t")) == 0 }
