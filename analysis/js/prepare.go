package js

import "strings"

// prepared is esbuild's output made readable by goja's parser: top-level
// import and export statements blanked to spaces (newlines kept, so every
// offset stays where it was), "export default" rewritten to a variable
// declaration of the same length, and import.meta renamed.
type prepared struct {
	code []byte
	// defaultDecl is the offset of "export default" (now
	// "var __def__ = "), -1 when absent.
	defaultDecl int
	// defaultAlias is the local name exported as default by an
	// "export { x as default }" clause, "" when none.
	defaultAlias string
	// aliasAt is the offset of that local name in the clause.
	aliasAt int
}

const defaultVar = "__def__"

func prepareJS(js string) *prepared {
	p := &prepared{code: []byte(js), defaultDecl: -1, aliasAt: -1}
	if strings.HasPrefix(js, "#!") { // a hashbang line, kept by esbuild
		end := strings.IndexByte(js, '\n')
		if end < 0 {
			end = len(js)
		}
		p.blank(0, end)
	}
	prev := token{}
	depth := 0
	for i := 0; ; {
		t := next(js, i, prev)
		if t.kind == tEOF {
			break
		}
		if t.kind == tPunct {
			switch js[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
		if t.kind == tIdent && t.text(js) == "import" {
			n := next(js, t.end, t)
			if n.kind == tPunct && js[n.start] == '.' {
				if m := next(js, n.end, n); m.kind == tIdent && m.text(js) == "meta" && m.end-t.start == len("import.meta") {
					copy(p.code[t.start:], "__imp_meta_")
					prev, i = m, m.end
					continue
				}
			}
			if depth == 0 && stmtStart(js, prev) && !(n.kind == tPunct && js[n.start] == '(') {
				end := stmtEnd(js, t.start)
				p.blank(t.start, end)
				prev, i = token{end - 1, end, tPunct}, end
				if end > 0 && js[end-1] != ';' {
					prev = t
				}
				continue
			}
		}
		if t.kind == tIdent && depth == 0 && t.text(js) == "export" && stmtStart(js, prev) {
			n := next(js, t.end, t)
			switch {
			case n.kind == tIdent && n.text(js) == "default":
				if js[t.start:n.end] == "export default" {
					copy(p.code[t.start:], "var "+defaultVar+" = ") // 14 bytes, like "export default"
					p.defaultDecl = t.start
				} else {
					p.blank(t.start, n.end)
				}
				prev, i = n, n.end
				continue
			case n.kind == tPunct && (js[n.start] == '{' || js[n.start] == '*'):
				end := stmtEnd(js, t.start)
				if js[n.start] == '{' {
					p.findDefaultAlias(js, n.end, end)
				}
				p.blank(t.start, end)
				prev, i = token{end - 1, end, tPunct}, end
				continue
			default:
				p.blank(t.start, t.end)
			}
		}
		prev, i = t, t.end
	}
	return p
}

// stmtStart reports whether a token after prev starts a statement (as
// esbuild prints them: after a ';', a '}' or at the start).
func stmtStart(js string, prev token) bool {
	if prev.kind == tEOF {
		return true
	}
	if prev.kind == tPunct {
		c := js[prev.start]
		return c == ';' || c == '}'
	}
	return false
}

// stmtEnd returns the end of the statement starting at i: after the ';'
// at bracket depth 0, or at the end of the line holding the last token
// when there is none.
func stmtEnd(js string, i int) int {
	prev := token{}
	depth := 0
	for {
		t := next(js, i, prev)
		if t.kind == tEOF {
			return len(js)
		}
		if t.kind == tPunct {
			switch js[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ';':
				if depth <= 0 {
					return t.end
				}
			}
		}
		prev, i = t, t.end
	}
}

// findDefaultAlias reads "a as default, b" between from and to.
func (p *prepared) findDefaultAlias(js string, from, to int) {
	var toks []token
	prev := token{}
	for i := from; i < to; {
		t := next(js, i, prev)
		if t.kind == tEOF || t.start >= to {
			break
		}
		toks = append(toks, t)
		prev, i = t, t.end
	}
	for k := 0; k+2 < len(toks); k++ {
		if toks[k].kind == tIdent && toks[k+1].text(js) == "as" && toks[k+2].text(js) == "default" {
			p.defaultAlias = toks[k].text(js)
			p.aliasAt = toks[k].start
		}
	}
	for k := 0; k < len(toks); k++ { // export { default } from "x" / export { default }
		if toks[k].text(js) == "default" && (k == 0 || toks[k-1].text(js) != "as") && p.defaultAlias == "" {
			p.defaultAlias = "default"
			p.aliasAt = toks[k].start
		}
	}
}

func (p *prepared) blank(from, to int) {
	for i := from; i < to && i < len(p.code); i++ {
		if p.code[i] != '\n' && p.code[i] != '\r' {
			p.code[i] = ' '
		}
	}
}
