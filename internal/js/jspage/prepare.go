package jspage

import "github.com/plugin-lsp/plugin-lsp/internal/js/jslex"

// prepared is what the analysis keeps of jslex.Prepare's pass over
// esbuild's output (which makes it readable by goja's parser: top-level
// import and export statements blanked to spaces, offsets kept, "export
// default" rewritten to a variable declaration of the same length, and
// import.meta renamed): where the default export is.
type prepared struct {
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

func prepareJS(js string, mp *jslex.Prepared) *prepared {
	p := &prepared{defaultDecl: mp.DefaultAt, aliasAt: -1}
	for _, st := range mp.Stmts {
		if st.Kind == jslex.ExportList && st.Tok+2 <= st.TokEnd {
			p.findDefaultAlias(js, mp.Toks[st.Tok+2:st.TokEnd])
		}
	}
	return p
}

// findDefaultAlias reads "a as default, b" in the tokens after the '{'
// of an export clause.
func (p *prepared) findDefaultAlias(js string, toks []jslex.Token) {
	for k := 0; k+2 < len(toks); k++ {
		if toks[k].Kind == jslex.Ident && toks[k+1].Is(js, "as") && toks[k+2].Is(js, "default") {
			p.defaultAlias = toks[k].Text(js)
			p.aliasAt = int(toks[k].Start)
		}
	}
	for k := 0; k < len(toks); k++ { // export { default } from "x" / export { default }
		if toks[k].Is(js, "default") && (k == 0 || !toks[k-1].Is(js, "as")) && p.defaultAlias == "" {
			p.defaultAlias = "default"
			p.aliasAt = int(toks[k].Start)
		}
	}
}
