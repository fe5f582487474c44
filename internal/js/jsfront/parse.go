// Package jsfront is the JavaScript front end every analysis of plugin
// code goes through: module text → goja AST (parse.go), with the offset
// map back to the text, a scope model of what every name is bound to, and
// a value-set evaluator (values.go) that says what an expression may hold
// (a finite set of strings, known prefixes, objects, functions, or
// unknown with a reason).
//
// Its two consumers name subjects, not techniques: internal/js/jspage reads a
// function-tool page (bundled by esbuild with its imports, positions
// mapped back through the source map) and internal/js/jsmodule a native tool
// module (its own bytes, positions direct). Both parse through Parse,
// build a Model over the body, and ask it for values; what they look for
// (host calls, a tools map) is theirs.
//
// goja's parser knows neither import/export nor top-level await: the
// lexer (internal/js/jslex) blanks the module statements to spaces (offsets
// kept) and rewrites `export default` to a variable declaration of the
// same length, and the text is wrapped in an async arrow. Offset maps a
// goja index back to a byte offset of the text.
//
// Architecture invariant: a leaf over goja and jslex. It reads no file,
// never panics on any text (a parser panic is an error), and bounds its
// work (see values.go). Callers bound the nesting depth of the text
// before Parse (a Go stack overflow cannot be recovered).
package jsfront

import (
	"fmt"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// wrapPrefix makes top-level await parseable; Offset shifts it back.
const wrapPrefix = "(async()=>{"

const wrapSuffix = "\n})"

// Program is a module parsed by goja.
type Program struct {
	// Src is the module text; every offset is a byte offset into it.
	Src string
	// Lex is the lexer's view (tokens, module statements, where
	// `export default` was rewritten).
	Lex *jslex.Prepared
	// Body is the module's top-level statements (nil when the text does
	// not parse).
	Body []ast.Statement
}

// ParseError is the first error goja reports, at a byte offset of the
// text.
type ParseError struct {
	Offset  int
	Message string
}

func (e *ParseError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Message) }

// Parse lexes src (opts say how `export default` is rewritten), parses
// it, and returns the program. On a parse error the Program still holds
// Src and Lex (a caller may retry with ParseCode on other code).
func Parse(src string, opts jslex.Options) (*Program, *ParseError) {
	p := &Program{Src: src, Lex: jslex.Prepare(src, opts)}
	return p, p.ParseCode(p.Lex.Code)
}

// ParseCode parses code, a rewrite of Src of the same length (Lex.Code,
// or a relaxed copy of it), into Body.
func (p *Program) ParseCode(code []byte) (perr *ParseError) {
	p.Body = nil
	defer func() {
		if e := recover(); e != nil {
			p.Body = nil
			perr = &ParseError{Message: fmt.Sprintf("the parser failed: %v", e)}
		}
	}()
	wrapped := wrapPrefix + string(code) + wrapSuffix
	prog, err := parser.ParseFile(nil, "module.js", wrapped, 0, parser.WithDisableSourceMaps)
	if err != nil {
		if list, ok := err.(parser.ErrorList); ok && len(list) > 0 {
			return &ParseError{Offset: p.clamp(offsetOf(wrapped, list[0].Position) - len(wrapPrefix)), Message: list[0].Message}
		}
		return &ParseError{Offset: len(p.Src), Message: err.Error()}
	}
	if len(prog.Body) == 1 {
		if es, ok := prog.Body[0].(*ast.ExpressionStatement); ok {
			if fn, ok := es.Expression.(*ast.ArrowFunctionLiteral); ok {
				if b, ok := fn.Body.(*ast.BlockStatement); ok && int(b.RightBrace) == len(wrapped)-1 {
					p.Body = b.List
					return nil
				}
			}
		}
	}
	// A stray "})" closed the wrapper early.
	return &ParseError{Offset: len(p.Src), Message: "unbalanced braces"}
}

// offsetOf converts goja's 1-based line and byte column to an offset.
func offsetOf(s string, pos file.Position) int {
	return text.NewIndex(s).OffsetUTF8(pos.Line-1, pos.Column-1)
}

func (p *Program) clamp(off int) int { return max(0, min(off, len(p.Src))) }

// Offset converts a goja index into a byte offset of Src, clamped.
func (p *Program) Offset(idx file.Idx) int { return p.clamp(int(idx) - 1 - len(wrapPrefix)) }

// Idx is Offset's inverse: the goja index of a byte offset of Src (for
// a node made up by a consumer, e.g. an identifier naming an export).
func (p *Program) Idx(off int) file.Idx { return file.Idx(off + 1 + len(wrapPrefix)) }
