package esm

import "strconv"

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
	toks      []lexToken
}

// relaxed returns the prepared code with every function body emptied
// (`{` after `)` or `=>` up to its matching `}`) and the `*` of async
// generators blanked: what is left is the module's top-level structure,
// which is all ReadExports needs, without the statement syntax goja's
// parser lacks (for await, using, async generator methods).
func (p *prepared) relaxed(src []byte) []byte {
	code := append([]byte(nil), p.code...)
	toks := p.toks
	is := func(i int, s string) bool {
		return i >= 0 && i < len(toks) && int(toks[i].end-toks[i].start) == len(s) && string(src[toks[i].start:toks[i].end]) == s
	}
	var open []int
	for i, t := range toks {
		switch {
		case t.kind == tPunct && is(i, "{"):
			open = append(open, i)
		case t.kind == tPunct && is(i, "}") && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			arrow := is(o-1, ">") && is(o-2, "=") && toks[o-2].end == toks[o-1].start
			if is(o-1, ")") || arrow {
				blank(code, int(toks[o].end), int(t.start))
			}
		case t.kind == tIdent && is(i, "async") && is(i+1, "*"):
			blank(code, int(toks[i+1].start), int(toks[i+1].end))
		}
	}
	return code
}

func blank(code []byte, s, e int) {
	for i := s; i < e && i < len(code); i++ {
		if code[i] != '\n' && code[i] != '\r' {
			code[i] = ' '
		}
	}
}

// prepare finds the module statements and the markers in src.
func prepare(src []byte) *prepared {
	toks := lex(src)
	p := &prepared{code: append([]byte(nil), src...), defaultAt: -1, toks: toks}
	// A byte-order mark and a hashbang line are the lexer's to skip; goja
	// must not see them.
	start := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		blank(p.code, 0, 3)
		start = 3
	}
	if len(src) >= start+2 && src[start] == '#' && src[start+1] == '!' {
		e := start
		for e < len(src) && src[e] != '\n' && src[e] != '\r' {
			e++
		}
		blank(p.code, start, e)
	}
	text := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return string(src[toks[i].start:toks[i].end])
	}
	is := func(i int, s string) bool {
		return i >= 0 && i < len(toks) && int(toks[i].end-toks[i].start) == len(s) && string(src[toks[i].start:toks[i].end]) == s
	}
	span := func(i int) Span { return Span{int(toks[i].start), int(toks[i].end)} }
	afterDot := func(i int) bool { return i > 0 && (is(i-1, ".") || is(i-1, "?.")) }
	// tail consumes `from "x"`, an optional `with { … }` and `;` starting at
	// token i; it returns the specifier and the index after the statement.
	tail := func(i int, needFrom bool) (string, int) {
		from := ""
		if is(i, "from") && i+1 < len(toks) && toks[i+1].kind == tString {
			from = unquote(text(i + 1))
			i += 2
		} else if needFrom {
			return "", i
		}
		if (is(i, "with") || is(i, "assert")) && is(i+1, "{") && !toks[i].nl {
			j := i + 2
			for j < len(toks) && !is(j, "}") {
				j++
			}
			i = j + 1
		}
		if is(i, ";") {
			i++
		}
		return from, i
	}
	end := func(i int) int {
		if i-1 < len(toks) && i > 0 {
			return int(toks[min(i, len(toks))-1].end)
		}
		return len(src)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tString && (text(i) == `"alwaysGate"` || text(i) == `'alwaysGate'`) {
			p.gates = append(p.gates, span(i))
			continue
		}
		if t.kind != tIdent {
			continue
		}
		word := text(i)
		switch word {
		case "alwaysGate":
			p.gates = append(p.gates, span(i))
		case "module":
			if !afterDot(i) && is(i+1, ".") && is(i+2, "exports") {
				p.cjs = append(p.cjs, Mark{Span{int(t.start), int(toks[i+2].end)}, "module.exports"})
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
				text := string(src[t.start:toks[e].end])
				if is(i+1, "[") {
					text = "exports[…]"
				}
				p.cjs = append(p.cjs, Mark{Span{int(t.start), int(toks[e].end)}, text})
			}
		case "require":
			if !afterDot(i) && is(i+1, "(") {
				p.cjs = append(p.cjs, Mark{span(i), "require"})
			}
		case "import":
			if afterDot(i) {
				continue
			}
			if is(i+1, "(") || is(i+1, ".") {
				// import(…) and import.meta: an identifier of the same
				// length keeps the expression parseable.
				copy(p.code[t.start:], "_mport")
				if is(i+1, ".") {
					p.esm = true
				}
				continue
			}
			if t.depth != 0 {
				continue
			}
			p.esm = true
			imp := Import{}
			j := i + 1
			if toks[min(j, len(toks)-1)].kind == tString && j < len(toks) {
				imp.From = unquote(text(j))
				_, j = tail(j+1, false)
			} else {
				// default, * as ns, { a, b as c, "d" as e }
				inBraces := false
				for j < len(toks) && !is(j, "from") && !is(j, ";") {
					switch {
					case is(j, "{"):
						inBraces = true
					case is(j, "}"):
						inBraces = false
					case is(j, "*") && is(j+1, "as") && j+2 < len(toks):
						imp.Names = append(imp.Names, ImportName{Local: text(j + 2), Imported: "*"})
						j += 2
					case toks[j].kind == tIdent || (inBraces && toks[j].kind == tString):
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
					j++
				}
				for _, n := range imp.Names {
					imp.Locals = append(imp.Locals, n.Local)
				}
				imp.From, j = tail(j, true)
			}
			imp.Span = Span{int(t.start), end(j)}
			blank(p.code, imp.Span.Start, imp.Span.End)
			p.imports = append(p.imports, imp)
			i = j - 1
		case "export":
			if afterDot(i) || t.depth != 0 {
				continue
			}
			p.esm = true
			switch {
			case is(i+1, "default"):
				def := span(i + 1)
				named := ""
				k := i + 2
				if is(k, "async") && is(k+1, "function") && !toks[k+1].nl {
					k++
				}
				if is(k, "function") || is(k, "class") {
					n := k + 1
					if is(n, "*") {
						n++
					}
					if n < len(toks) && toks[n].kind == tIdent && !is(n, "extends") {
						named = text(n)
					}
				}
				s, e := int(t.start), int(def.End)
				if named != "" {
					blank(p.code, s, e)
					p.exports = append(p.exports, Export{Name: "default", Span: def, Local: named})
				} else {
					blank(p.code, s, e)
					copy(p.code[s:], defaultVar)
					p.defaultAt = s
					p.exports = append(p.exports, Export{Name: "default", Span: def})
				}
				i++
			case is(i+1, "{"):
				j := i + 2
				var specs []Export
				for j < len(toks) && !is(j, "}") {
					if toks[j].kind == tIdent || toks[j].kind == tString {
						ex := Export{Name: unquote(text(j)), Span: span(j), Local: unquote(text(j))}
						if is(j+1, "as") && j+2 < len(toks) {
							j += 2
							ex.Name, ex.Span = unquote(text(j)), span(j)
						}
						specs = append(specs, ex)
					}
					j++
				}
				from, k := tail(j+1, false)
				for _, ex := range specs {
					if from != "" { // Local is then the name in that module
						ex.From = from
					}
					p.exports = append(p.exports, ex)
				}
				blank(p.code, int(t.start), end(k))
				i = k - 1
			case is(i+1, "*"):
				ex := Export{Name: "*", Span: span(i + 1), Star: true}
				j := i + 2
				if is(j, "as") && j+1 < len(toks) {
					ex.Name, ex.Span = unquote(text(j+1)), span(j+1)
					j += 2
				}
				ex.From, j = tail(j, true)
				p.exports = append(p.exports, ex)
				blank(p.code, int(t.start), end(j))
				i = j - 1
			default:
				blank(p.code, int(t.start), int(t.end))
				if i+1 < len(toks) {
					p.decls = append(p.decls, declExport{Start: int(toks[i+1].start)})
				}
			}
		}
	}
	return p
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
