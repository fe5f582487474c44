package jspage

import (
	"github.com/dop251/goja/ast"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// pendingURL is the URL argument (and the init) of an http.fetch,
// evaluated once the walk has seen every call site and assignment of the
// bundle.
type pendingURL struct {
	call int // index in page.Calls
	e    ast.Expression
	init ast.Expression // nil when the call has none
	sc   *jsfront.Scope
}

// resolveURLs evaluates every pending fetch URL.
func (a *analyzer) resolveURLs() {
	for _, p := range a.pending {
		a.page.Calls[p.call].URL = a.urlArg(p.e, p.sc)
		if p.init != nil {
			a.page.Calls[p.call].FetchMethod = a.fetchMethod(p.init, p.sc)
		}
	}
}

func (a *analyzer) urlArg(e ast.Expression, sc *jsfront.Scope) *URLArg {
	u := &URLArg{Span: a.exprSpan(e)}
	for _, one := range a.m.Values(e, sc) {
		uv := URLValue{Kind: one.Kind, Value: one.S, Reason: one.Reason}
		if one.Lit >= 0 {
			uv.Lit = Span{Start: one.Lit, End: jslex.TokenEnd(a.ts, one.Lit)}
		}
		if uv.Kind != Exact && uv.Reason == "" {
			uv.Reason = "`" + a.text(u.Span) + "` is only known at run time"
		}
		u.Values = append(u.Values, uv)
	}
	if len(u.Values) == 0 {
		u.Values = []URLValue{{Kind: Unknown, Reason: "`" + a.text(u.Span) + "` is only known at run time"}}
	}
	first := u.Values[0]
	u.Kind, u.Value, u.Reason, u.Lit = first.Kind, first.Value, first.Reason, first.Lit
	if len(u.Values) > 1 {
		// The summary of a set: its common start.
		u.Kind, u.Reason = Prefix, "the URL is one of several values"
		common := first.Value
		for _, v := range u.Values[1:] {
			if v.Kind == Unknown {
				u.Kind, common = Unknown, ""
				u.Reason = v.Reason
				break
			}
			n := 0
			for n < len(common) && n < len(v.Value) && common[n] == v.Value[n] {
				n++
			}
			common = common[:n]
		}
		if first.Kind == Unknown {
			u.Kind, common, u.Reason = Unknown, "", first.Reason
		}
		u.Value = common
		if common == "" {
			u.Kind = Unknown
		}
	}
	return u
}
