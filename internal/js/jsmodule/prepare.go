package jsmodule

import (
	"strconv"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// defaultVar replaces `export default` before an expression; it has the
// length of "export default", the shortest way to write it.
const defaultVar = "var $default ="

// declExport is an `export const|let|var|function|class` statement: the
// declaration starts at Start once `export` is blanked.
type declExport struct{ Start int }

// prepared is the lexer's view of the module.
type prepared struct {
	code      []byte // src with import/export blanked, same length
	esm       bool   // import/export statement or import.meta seen
	imports   []Import
	exports   []Export     // from export { … } / export * / export default
	decls     []declExport // export const|let|var|function|class …
	defaultAt int          // offset of the `var $default =` statement, -1 if none
	cjs       []Mark
	gates     []Span
	src       string
	toks      []jslex.Token
	// blanked are the function bodies relaxed emptied (the token ranges
	// between the braces).
	blanked [][2]int
}

// relaxed returns the prepared code with every function body emptied
// (`{` after `)` or `=>` up to its matching `}`) and the `*` of async
// generators blanked: what is left is the module's top-level structure,
// which is all ReadExports needs, without the statement syntax goja's
// parser lacks (for await, using, async generator methods). With
// classes, class bodies are emptied too (`{` after `class`, `class X`
// or `extends X`): goja rejects some valid class members (a field named
// get, set or static: `get = f.bind(this)`).
func (p *prepared) relaxed(classes bool) []byte {
	p.blanked = p.blanked[:0]
	code := append([]byte(nil), p.code...)
	src, toks := p.src, p.toks
	is := func(i int, s string) bool { return i >= 0 && i < len(toks) && toks[i].Is(src, s) }
	var open []int
	for i, t := range toks {
		switch {
		case t.Kind == jslex.Punct && is(i, "{"):
			open = append(open, i)
		case t.Kind == jslex.Punct && is(i, "}") && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			arrow := is(o-1, ">") && is(o-2, "=") && toks[o-2].End == toks[o-1].Start
			class := classes && (is(o-1, "class") || is(o-2, "class") || is(o-2, "extends"))
			if is(o-1, ")") || arrow || class {
				jslex.Blank(code, int(toks[o].End), int(t.Start))
				p.blanked = append(p.blanked, [2]int{o + 1, i})
			}
		case t.Kind == jslex.Ident && is(i, "async") && is(i+1, "*"):
			jslex.Blank(code, int(toks[i+1].Start), int(toks[i+1].End))
		}
	}
	return code
}

// prepare finds the module statements and the markers in src.
func prepare(src []byte, mp *jslex.Prepared) *prepared {
	s := string(src)
	toks := mp.Toks
	p := &prepared{code: mp.Code, esm: mp.ImportMeta || len(mp.Stmts) > 0, defaultAt: mp.DefaultAt, src: s, toks: toks}
	text := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].Text(s)
	}
	is := func(i int, w string) bool { return i >= 0 && i < len(toks) && toks[i].Is(s, w) }
	span := func(i int) Span { return Span{Start: int(toks[i].Start), End: int(toks[i].End)} }
	afterDot := func(i int) bool { return i > 0 && (is(i-1, ".") || is(i-1, "?.")) }
	stmts := mp.Stmts
	for i := 0; i < len(toks); i++ {
		if len(stmts) > 0 && stmts[0].Tok == i {
			p.statement(stmts[0])
			i = stmts[0].TokEnd - 1
			stmts = stmts[1:]
			continue
		}
		t := toks[i]
		if t.Kind == jslex.String && (text(i) == `"alwaysGate"` || text(i) == `'alwaysGate'`) {
			p.gates = append(p.gates, span(i))
			continue
		}
		if t.Kind != jslex.Ident {
			continue
		}
		switch text(i) {
		case "alwaysGate":
			p.gates = append(p.gates, span(i))
		case "module":
			if !afterDot(i) && is(i+1, ".") && is(i+2, "exports") {
				p.cjs = append(p.cjs, Mark{Span{Start: int(t.Start), End: int(toks[i+2].End)}, "module.exports"})
			}
		case "exports":
			if !afterDot(i) && (is(i+1, ".") || is(i+1, "[")) {
				e := i + 2
				if is(i+1, "[") {
					e = i + 1
				}
				if e >= len(toks) {
					e = len(toks) - 1
				}
				text := s[t.Start:toks[e].End]
				if is(i+1, "[") {
					text = "exports[…]"
				}
				p.cjs = append(p.cjs, Mark{Span{Start: int(t.Start), End: int(toks[e].End)}, text})
			}
		case "require":
			if !afterDot(i) && is(i+1, "(") {
				p.cjs = append(p.cjs, Mark{span(i), "require"})
			}
		}
	}
	return p
}

// statement reads the imports and exports of one top-level statement.
func (p *prepared) statement(st jslex.Stmt) {
	src, toks := p.src, p.toks
	text := func(i int) string { return toks[i].Text(src) }
	is := func(i int, w string) bool { return i >= 0 && i < len(toks) && toks[i].Is(src, w) }
	span := func(i int) Span { return Span{Start: int(toks[i].Start), End: int(toks[i].End)} }
	from := ""
	if st.From >= 0 {
		from = unquote(text(st.From))
	}
	i := st.Tok
	switch st.Kind {
	case jslex.Import:
		imp := Import{From: from, Span: Span{Start: st.Start, End: st.End}}
		if st.From != i+1 {
			// default, * as ns, { a, b as c, "d" as e }
			inBraces := false
			for j := i + 1; j < len(toks) && !is(j, "from") && !is(j, ";"); j++ {
				switch {
				case is(j, "{"):
					inBraces = true
				case is(j, "}"):
					inBraces = false
				case is(j, "*") && is(j+1, "as") && j+2 < len(toks):
					imp.Names = append(imp.Names, ImportName{Local: text(j + 2), Imported: "*"})
					j += 2
				case toks[j].Kind == jslex.Ident || (inBraces && toks[j].Kind == jslex.String):
					imported := unquote(text(j))
					local := imported
					if is(j+1, "as") && j+2 < len(toks) {
						local = text(j + 2)
						j += 2
					}
					if !inBraces {
						imported = "default"
					}
					imp.Names = append(imp.Names, ImportName{Local: local, Imported: imported})
				}
			}
			for _, n := range imp.Names {
				imp.Locals = append(imp.Locals, n.Local)
			}
		}
		p.imports = append(p.imports, imp)
	case jslex.ExportDefault:
		ex := Export{Name: "default", Span: span(i + 1)}
		if st.Name >= 0 {
			ex.Local = text(st.Name)
		}
		p.exports = append(p.exports, ex)
	case jslex.ExportList:
		for j := i + 2; j < len(toks) && !is(j, "}"); j++ {
			if toks[j].Kind == jslex.Ident || toks[j].Kind == jslex.String {
				ex := Export{Name: unquote(text(j)), Span: span(j), Local: unquote(text(j))}
				if is(j+1, "as") && j+2 < len(toks) {
					j += 2
					ex.Name, ex.Span = unquote(text(j)), span(j)
				}
				if from != "" { // Local is then the name in that module
					ex.From = from
				}
				p.exports = append(p.exports, ex)
			}
		}
	case jslex.ExportAll:
		ex := Export{Name: "*", Span: span(i + 1), Star: true, From: from}
		if is(i+2, "as") && i+3 < len(toks) {
			ex.Name, ex.Span = unquote(text(i+3)), span(i+3)
		}
		p.exports = append(p.exports, ex)
	case jslex.ExportDecl:
		if i+1 < len(toks) {
			p.decls = append(p.decls, declExport{Start: int(toks[i+1].Start)})
		}
	}
}

// unquote returns the value of a string token, or the text itself.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		if s[0] == '\'' {
			s = `"` + s[1:len(s)-1] + `"`
		}
		if v, err := strconv.Unquote(s); err == nil {
			return v
		}
		return s[1 : len(s)-1]
	}
	return s
}
