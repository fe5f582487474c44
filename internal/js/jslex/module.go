package jslex

// The module pass makes a module readable by a script parser (goja's):
// top-level import and export statements are blanked to spaces (line
// breaks kept, so every offset stays where it was), `export default`
// becomes a variable declaration of the same length, and import.meta
// (optionally import(…)) gets an identifier of the same length.

// StmtKind is the kind of a top-level import/export statement.
type StmtKind uint8

const (
	// Import is `import … from "x"` or `import "x"`, blanked whole.
	Import StmtKind = iota + 1
	// ExportList is `export { … } [from "x"]`, blanked whole.
	ExportList
	// ExportAll is `export * [as n] from "x"`, blanked whole.
	ExportAll
	// ExportDefault is `export default`: the two keywords, rewritten to
	// Options.DefaultVar or (a kept named declaration) blanked.
	ExportDefault
	// ExportDecl is the `export` of `export const|let|var|function|class`,
	// blanked; the declaration stays.
	ExportDecl
)

// Stmt is one top-level import/export statement.
type Stmt struct {
	Kind StmtKind
	// Start and End are the bytes blanked or rewritten.
	Start, End int
	// Tok and TokEnd are the statement's tokens [Tok, TokEnd); Tok is the
	// import or export keyword. For ExportDefault and ExportDecl they are
	// the keywords only.
	Tok, TokEnd int
	// From is the token of the module specifier (the string after
	// `from`, or of `import "x"`), -1 when there is none.
	From int
	// Name is, for ExportDefault, the token of the name of an
	// `export default [async] function [*] name` or `class name`; -1 when
	// there is none.
	Name int
}

// Options say how the module pass rewrites what it finds.
type Options struct {
	// DefaultVar is written over `export default`, e.g. "var $default =";
	// at most 14 bytes (the length of "export default").
	DefaultVar string
	// KeepNamedDefault keeps `export default function f` and `export
	// default class C` declarations (only the keywords are blanked)
	// instead of writing DefaultVar.
	KeepNamedDefault bool
	// DynamicImport renames import(…) too (the parser then reads a call).
	DynamicImport bool
}

// MetaVar replaces the `import` of import.meta (and of import(…)).
const MetaVar = "_mport"

// Prepared is a module after the pass.
type Prepared struct {
	// Code is the source with the statements blanked, of the same length.
	Code []byte
	// Toks are the module's tokens (Lex).
	Toks  []Token
	Stmts []Stmt
	// DefaultAt is the offset of DefaultVar in Code, -1 when not written.
	DefaultAt int
	// ImportMeta reports an import.meta.
	ImportMeta bool
}

// Blank replaces the bytes [s, e) of code with spaces, keeping line
// breaks.
func Blank(code []byte, s, e int) {
	for i := max(s, 0); i < e && i < len(code); i++ {
		if code[i] != '\n' && code[i] != '\r' {
			code[i] = ' '
		}
	}
}

// Prepare runs the module pass over src.
func Prepare(src string, opt Options) *Prepared {
	toks := Lex(src)
	p := &Prepared{Code: []byte(src), Toks: toks, DefaultAt: -1}
	Blank(p.Code, 0, Prologue(src)) // a BOM and a hashbang line
	is := func(i int, s string) bool { return i >= 0 && i < len(toks) && toks[i].Is(src, s) }
	afterDot := func(i int) bool { return is(i-1, ".") || is(i-1, "?.") }
	// tail consumes `from "x"`, an optional `with { … }` and `;` from
	// token i; it returns the token of "x" (-1 when absent) and the index
	// after the statement, i itself when from is needed and missing.
	tail := func(i int, needFrom bool) (int, int) {
		from := -1
		if is(i, "from") && i+1 < len(toks) && toks[i+1].Kind == String {
			from = i + 1
			i += 2
		} else if needFrom {
			return -1, i
		}
		if (is(i, "with") || is(i, "assert")) && is(i+1, "{") && !toks[i].NL {
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
	// end is the end of the statement's last token (before token i).
	end := func(i int) int {
		if i > 0 && i-1 < len(toks) {
			return int(toks[min(i, len(toks))-1].End)
		}
		return len(src)
	}
	add := func(k StmtKind, i, j, from int) {
		st := Stmt{Kind: k, Start: int(toks[i].Start), End: end(j), Tok: i, TokEnd: min(j, len(toks)), From: from, Name: -1}
		p.Stmts = append(p.Stmts, st)
		Blank(p.Code, st.Start, st.End)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind != Ident || t.End-t.Start != 6 || afterDot(i) { // import, export
			continue
		}
		switch {
		case t.Is(src, "import"):
			if is(i+1, ".") || is(i+1, "(") {
				if is(i+1, ".") {
					p.ImportMeta = true
				}
				if is(i+1, ".") || opt.DynamicImport {
					copy(p.Code[t.Start:], MetaVar)
				}
				continue
			}
			if t.Depth != 0 {
				continue
			}
			j, from := i+1, -1
			if j < len(toks) && toks[j].Kind == String {
				from = j
				_, j = tail(j+1, false)
			} else {
				// default, * as ns, { a, b as c, "d" as e }: an `as`
				// and the name after it are skipped, whatever they are.
				inBraces := false
				for j < len(toks) && !is(j, "from") && !is(j, ";") {
					switch {
					case is(j, "{"):
						inBraces = true
					case is(j, "}"):
						inBraces = false
					case is(j, "*") || toks[j].Kind == Ident || inBraces && toks[j].Kind == String:
						if is(j+1, "as") && j+2 < len(toks) {
							j += 2
						}
					}
					j++
				}
				from, j = tail(j, true)
			}
			add(Import, i, j, from)
			i = j - 1
		case t.Is(src, "export") && t.Depth == 0:
			switch {
			case is(i+1, "default"):
				st := Stmt{Kind: ExportDefault, Start: int(t.Start), End: int(toks[i+1].End), Tok: i, TokEnd: i + 2, From: -1, Name: -1}
				k := i + 2
				if is(k, "async") && is(k+1, "function") && !toks[k+1].NL {
					k++
				}
				if is(k, "function") || is(k, "class") {
					n := k + 1
					if is(n, "*") {
						n++
					}
					if n < len(toks) && toks[n].Kind == Ident && !is(n, "extends") {
						st.Name = n
					}
				}
				p.Stmts = append(p.Stmts, st)
				Blank(p.Code, st.Start, st.End)
				if st.Name < 0 || !opt.KeepNamedDefault {
					copy(p.Code[st.Start:st.End], opt.DefaultVar)
					p.DefaultAt = st.Start
				}
				i++
			case is(i+1, "{"):
				j := i + 2
				for j < len(toks) && !is(j, "}") {
					j++
				}
				from, k := tail(j+1, false)
				add(ExportList, i, k, from)
				i = k - 1
			case is(i+1, "*"):
				j := i + 2
				if is(j, "as") && j+1 < len(toks) {
					j += 2
				}
				from, k := tail(j, true)
				add(ExportAll, i, k, from)
				j = k
				i = j - 1
			default:
				add(ExportDecl, i, i+1, -1)
			}
		}
	}
	return p
}
