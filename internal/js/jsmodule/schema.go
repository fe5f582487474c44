package jsmodule

import (
	"encoding/json"
	"strconv"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// maxSchemaDepth bounds the nesting of an inputJsonSchema literal read as
// a value (deeper is not static: the generated input type is unknown).
const maxSchemaDepth = 64

// maxSchemaNodes bounds the values read from one inputJsonSchema.
const maxSchemaNodes = 20_000

// schemaValue reads a tool's inputJsonSchema as the JSON value it is when
// it is written as data: object literals with constant keys (spreads of
// top-level constants and Object.freeze followed), arrays, strings
// (constant expressions included), numbers (as json.Number), booleans and
// null, directly or through top-level constants. ok is false when any part
// of it is computed at run time: then nothing is claimed about its shape.
func (r *reader) schemaValue(e ast.Expression) (v any, ok bool) {
	s := &schemaReader{r: r}
	v = s.value(e, 0)
	return v, !s.failed
}

type schemaReader struct {
	r      *reader
	nodes  int
	failed bool
}

func (s *schemaReader) value(e ast.Expression, depth int) any {
	if s.failed {
		return nil
	}
	s.nodes++
	if e == nil || depth > maxSchemaDepth || s.nodes > maxSchemaNodes {
		s.failed = true
		return nil
	}
	o := &objReader{r: s.r, seen: map[string]bool{}}
	switch x := o.resolve(e, 0).(type) {
	case *ast.ObjectLiteral:
		props, _ := o.collect(x, 0)
		if len(o.unknown) > 0 {
			s.failed = true
			return nil
		}
		m := make(map[string]any, len(props))
		for _, p := range props {
			if p.kind != ast.PropertyKindValue {
				s.failed = true
				return nil
			}
			m[p.key] = s.value(p.value, depth+1)
		}
		return m
	case *ast.ArrayLiteral:
		a := make([]any, 0, len(x.Value))
		for _, el := range x.Value {
			if _, spread := el.(*ast.SpreadElement); spread || el == nil {
				s.failed = true
				return nil
			}
			a = append(a, s.value(el, depth+1))
		}
		return a
	case *ast.NumberLiteral:
		return number(x, false, s)
	case *ast.UnaryExpression:
		if n, ok := x.Operand.(*ast.NumberLiteral); ok && x.Operator == token.MINUS {
			return number(n, true, s)
		}
	case *ast.BooleanLiteral:
		return x.Value
	case *ast.NullLiteral:
		return nil
	}
	if str, ok := o.constString(e, 0); ok {
		return str
	}
	s.failed = true
	return nil
}

// number is a number literal as JSON text (what the schema converter reads).
func number(n *ast.NumberLiteral, neg bool, s *schemaReader) any {
	var text string
	switch v := n.Value.(type) {
	case int64:
		text = strconv.FormatInt(v, 10)
	case float64:
		b, err := json.Marshal(v)
		if err != nil { // Infinity, NaN
			s.failed = true
			return nil
		}
		text = string(b)
	default:
		s.failed = true
		return nil
	}
	if neg && text != "0" {
		text = "-" + text
	}
	return json.Number(text)
}
