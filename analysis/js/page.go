// Package js analyses a function-tool page (TypeScript or JavaScript):
// the host API calls it makes (http.fetch, collections.*), what each
// fetch URL is statically, its default export, the HTTP header names it
// sets and the token-like literals it holds.
//
// It is a leaf package: plain structs with byte offsets into the ORIGINAL
// page source, no dependency on the analysis core.
//
// How: esbuild transforms the page to JavaScript with a source map;
// top-level import/export statements of that output are blanked to
// spaces (offsets kept) and the whole is wrapped in an async arrow (for
// top-level await), so that goja's parser, which knows neither, reads it;
// a walk over goja's AST, with a small scope model (goja has none),
// finds host calls and resolves URLs; every position goes back through
// the source map to the page, and ends are found by re-tokenizing the
// page (source maps give starts only).
//
// Architecture invariant: AnalyzePage never panics on any input and never
// reads anything but its argument (goja's source-map loading is off).
package js

import (
	"fmt"
	"path"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/plugin-lsp/plugin-lsp/analysis/jslex"
)

// Span is a half-open byte range in the page source.
type Span struct{ Start, End int }

// URLKind says how much of a fetch URL is known statically.
type URLKind int

const (
	// Unknown: nothing usable is known (Reason says why).
	Unknown URLKind = iota
	// Prefix: Value is a known prefix; the rest is computed at run time.
	Prefix
	// Exact: Value is the whole URL.
	Exact
)

func (k URLKind) String() string {
	switch k {
	case Exact:
		return "exact"
	case Prefix:
		return "prefix"
	}
	return "unknown"
}

// URLArg is the first argument of an http.fetch call.
type URLArg struct {
	Span   Span    // the argument expression
	Kind   URLKind //
	Value  string  // the URL (Exact) or its known start (Prefix)
	Reason string  // for Prefix/Unknown: what is not known statically
	// Lit is the string or template literal in the page where Value
	// starts (quotes included), wherever it is (the call, or a const
	// declaration); Lit.End == 0 when there is none.
	Lit Span
}

// HostCall is one call of a host API method.
type HostCall struct {
	Object string // "http" or "collections"
	Method string // "fetch", "get", …; "" when the member is computed
	Span   Span   // the whole call, callee to closing parenthesis
	Callee Span   // the callee expression (http.fetch, h.fetch, f, …)
	// URL is the URL argument of http.fetch (nil for other methods or a
	// call without arguments).
	URL *URLArg
	// FetchMethod is the HTTP method of an http.fetch call from its init
	// ("GET" when there is no init or no method), "" when not known.
	FetchMethod string
}

// DefaultExport describes the page's default export.
type DefaultExport struct {
	Present bool
	Span    Span
	// Kind is "function", "class", "object", "value" or "unknown" (not
	// decidable statically: an imported or computed value).
	Kind string
}

// Header is an HTTP header name the page sets in code.
type Header struct {
	Name string
	Span Span // the name (a key, or a string argument)
	// Remove is the text to delete to drop the header when it is a
	// property of an object literal (with its comma, or its whole line);
	// Remove.End == 0 otherwise.
	Remove Span
}

// Token is a string literal that looks like a credential.
type Token struct {
	Span Span
	Kind string // "GitHub token", "JWT", …
}

// SyntaxError is an error of the page (or a construct this analysis
// cannot read, when Unsupported is set).
type SyntaxError struct {
	Span        Span
	Message     string
	Unsupported bool
}

// Page is everything AnalyzePage found.
type Page struct {
	Path          string
	Calls         []HostCall
	DefaultExport DefaultExport
	Headers       []Header
	Tokens        []Token
	Errors        []SyntaxError
}

// MaxSize is the largest page analysed; a bigger one yields an error.
const MaxSize = jslex.MaxSource

// wrapPrefix wraps esbuild's output so that top-level await parses.
const wrapPrefix = "(async()=>{"

// AnalyzePage analyses one page. path decides the loader (.ts, .mts,
// .cts, .tsx → TypeScript; anything else → JavaScript); it appears in
// nothing else.
func AnalyzePage(pagePath string, src []byte) (page *Page) {
	page = &Page{Path: pagePath}
	defer func() {
		if e := recover(); e != nil {
			page.Calls, page.Headers, page.Tokens = nil, nil, nil
			page.Errors = append(page.Errors, SyntaxError{Message: fmt.Sprintf("internal error while analysing the page (please report this): %v", e), Unsupported: true})
		}
	}()
	if len(src) > MaxSize {
		page.Errors = append(page.Errors, SyntaxError{Message: fmt.Sprintf("the page is %d bytes; pages over %d bytes are not analysed", len(src), MaxSize), Unsupported: true})
		return page
	}
	ts := string(src)
	// Deep nesting would overflow esbuild's or goja's stack (fatal in Go):
	// measured first, with a tokenizer that keeps no stack.
	if e := jslex.CheckNesting(ts, jslex.MaxNesting); e != nil {
		page.Errors = append(page.Errors, SyntaxError{Span: Span{e.Offset, jslex.TokenEnd(ts, e.Offset)}, Message: e.Message})
		return page
	}
	loader := api.LoaderJS
	switch strings.ToLower(path.Ext(pagePath)) {
	case ".ts", ".mts", ".cts":
		loader = api.LoaderTS
	case ".tsx":
		loader = api.LoaderTSX
	case ".jsx":
		loader = api.LoaderJSX
	}
	res := api.Transform(ts, api.TransformOptions{
		Loader:    loader,
		Format:    api.FormatESModule,
		Sourcemap: api.SourceMapExternal,
		// Without the page's text in the map: esbuild v0.28.2 loops forever
		// quoting a text that ends inside a UTF-8 sequence ("//\xd0").
		SourcesContent: api.SourcesContentExclude,
		Sourcefile:     pagePath,
		// One line, no indentation: indented output grows with the
		// square of the nesting depth.
		MinifyWhitespace: true,
		Target:           api.ESNext,
		Charset:          api.CharsetUTF8,
		LegalComments:    api.LegalCommentsNone,
		LogLevel:         api.LogLevelSilent,
		Supported: map[string]bool{
			"for-await": false, "async-generator": false, "dynamic-import": false,
			"decorators": false, "using": false,
		},
	})
	tsIdx := newLineIndex(ts)
	if len(res.Errors) > 0 {
		for _, m := range res.Errors {
			sp := Span{}
			if l := m.Location; l != nil {
				sp.Start = tsIdx.lineCol8(l.Line-1, l.Column)
				sp.End = sp.Start + l.Length
				if sp.End > len(ts) {
					sp.End = len(ts)
				}
			}
			page.Errors = append(page.Errors, SyntaxError{Span: sp, Message: m.Text})
		}
		return page
	}
	jsText := string(res.Code)
	prep := prepareJS(jsText)
	a := &analyzer{
		page: page, ts: ts, tsIdx: tsIdx, js: jsText, jsIdx: newLineIndex(jsText),
		sm: parseSourceMap(res.Map), prep: prep,
	}
	prog, err := parser.ParseFile(nil, pagePath, wrapPrefix+string(prep.code)+"\n})();", 0, parser.WithDisableSourceMaps)
	if err != nil {
		a.gojaErrors(err)
		return page
	}
	a.run(prog)
	return page
}

// gojaErrors reports what goja could not parse in esbuild's (valid)
// output: a construct this analysis does not support.
func (a *analyzer) gojaErrors(err error) {
	list, ok := err.(parser.ErrorList)
	if !ok || len(list) == 0 {
		a.page.Errors = append(a.page.Errors, SyntaxError{Message: "cannot analyse the page: " + err.Error(), Unsupported: true})
		return
	}
	e := list[0]
	off := a.jsIdx.lineCol8(e.Position.Line-1, e.Position.Column-1)
	if e.Position.Line == 1 {
		off -= len(wrapPrefix)
	}
	start := a.toTS(off)
	if start < 0 {
		start = 0
	}
	a.page.Errors = append(a.page.Errors, SyntaxError{
		Span:        Span{start, tokenEnd(a.ts, start)},
		Message:     "cannot analyse the page: " + e.Message,
		Unsupported: true,
	})
}

// analyzer holds one page's texts and position maps during the walk.
type analyzer struct {
	page  *Page
	ts    string
	tsIdx *lineIndex
	js    string
	jsIdx *lineIndex
	sm    *sourceMap
	prep  *prepared
	// evalSteps counts eval calls (bounded by maxEvalSteps).
	evalSteps int
}

// jsOff converts a goja index into an offset in esbuild's output.
func jsOff(idx int) int { return idx - 1 - len(wrapPrefix) }

// toTS maps an offset in esbuild's output to the page, -1 when unmapped.
func (a *analyzer) toTS(off int) int {
	if off < 0 {
		return -1
	}
	line, col := a.jsIdx.pos(off)
	l, c, ok := a.sm.lookup(line, col)
	if !ok {
		return -1
	}
	return a.tsIdx.offset(l, c)
}

// start maps a node's start to the page (-1 when unmapped).
func (a *analyzer) start(n ast.Node) int { return a.tokenToTS(jsOff(int(n.Idx0()))) }

// tokenToTS maps the token that starts at off in esbuild's output to the
// page, checking that the page holds the same token there. esbuild maps
// most token starts exactly, but code it moves or lowers (hoisted default
// exports, for await, decorators) can carry the mapping of a neighbour;
// then the token is searched for on the mapped line and the lines next
// to it, nearest first.
func (a *analyzer) tokenToTS(off int) int {
	cand := a.toTS(off)
	if cand < 0 || off >= len(a.js) {
		return cand
	}
	jt := jslex.ScanFrom(a.js, off).Next()
	if int(jt.Start) != off {
		return cand
	}
	if a.sameToken(jt, cand) {
		return cand
	}
	if jt.Kind != jslex.Ident && jt.Kind != jslex.Private {
		return cand
	}
	word := jt.Text(a.js)
	line, _ := a.tsIdx.pos(cand)
	from := a.tsIdx.offset(line-1, 0)
	to := a.tsIdx.offset(line+2, 0)
	best := -1
	for i := from; i < to; {
		j := strings.Index(a.ts[i:to], word)
		if j < 0 {
			break
		}
		at := i + j
		if (at == 0 || !jslex.IsIdentPart(a.ts[at-1])) && (at+len(word) >= len(a.ts) || !jslex.IsIdentPart(a.ts[at+len(word)])) {
			if best < 0 || abs(at-cand) < abs(best-cand) {
				best = at
			}
		}
		i = at + len(word)
	}
	if best >= 0 {
		return best
	}
	return cand
}

// sameToken reports whether the page has, at ts, a token like jt.
func (a *analyzer) sameToken(jt jslex.Token, ts int) bool {
	if ts >= len(a.ts) {
		return false
	}
	switch jt.Kind {
	case jslex.Ident, jslex.Private, jslex.Number:
		w := jt.Text(a.js)
		return strings.HasPrefix(a.ts[ts:], w) && (ts+len(w) >= len(a.ts) || !jslex.IsIdentPart(a.ts[ts+len(w)]))
	case jslex.String:
		return a.ts[ts] == '"' || a.ts[ts] == '\''
	case jslex.Template, jslex.TemplateHead:
		return a.ts[ts] == '`'
	}
	return a.ts[ts] == a.js[jt.Start]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// exprSpan maps an expression to its span in the page.
func (a *analyzer) exprSpan(e ast.Node) Span {
	s := a.start(e)
	if s < 0 {
		return Span{}
	}
	end := exprEnd(a.ts, s)
	if end <= s {
		end = tokenEnd(a.ts, s)
	}
	return Span{s, end}
}

// tokSpan maps a single-token node (a literal, an identifier) to its
// span in the page.
func (a *analyzer) tokSpan(n ast.Node) Span {
	s := a.start(n)
	if s < 0 {
		return Span{}
	}
	return Span{s, tokenEnd(a.ts, s)}
}

// text returns the page text of sp, shortened for messages.
func (a *analyzer) text(sp Span) string {
	if sp.End <= sp.Start || sp.End > len(a.ts) {
		return ""
	}
	t := strings.Join(strings.Fields(a.ts[sp.Start:sp.End]), " ")
	if len(t) > 48 {
		t = t[:45] + "…"
	}
	return t
}
