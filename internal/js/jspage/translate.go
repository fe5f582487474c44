package jspage

// Source-map translation: the bundle's offsets laid out as one text of
// the page's files, and turned back into (file, offset) afterwards.

import (
	"path"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// layout places every source file one after the other in a.ts (each
// ending with a newline), so that every position of the bundle is one
// offset in one text; localize turns those offsets back into (file,
// offset in that file) when the walk is done.
func (a *analyzer) layout(entry, entrySrc string, sources []string, texts map[string]string) {
	var b strings.Builder
	line := 0
	add := func(rel, text string) int {
		i := len(a.files)
		a.files = append(a.files, srcFile{rel: rel, start: b.Len(), line: line})
		b.WriteString(text)
		b.WriteByte('\n')
		line += strings.Count(text, "\n") + 1
		return i
	}
	a.srcIdx = make([]int, len(sources))
	for i, s := range sources {
		rel := s
		if j := strings.Index(s, pluginNS+":"); j >= 0 {
			rel = s[j+len(pluginNS)+1:]
		}
		// esbuild writes "plugin:./code/x.ts" for an entry: the file
		// names in diagnostics are clean plugin-relative paths.
		rel = path.Clean(rel)
		a.srcIdx[i] = -1
		for k, f := range a.files {
			if f.rel == rel {
				a.srcIdx[i] = k
			}
		}
		if t, ok := texts[rel]; ok && a.srcIdx[i] < 0 {
			a.srcIdx[i] = add(rel, t)
		}
	}
	found := false
	for _, f := range a.files {
		found = found || f.rel == entry
	}
	if !found {
		add(entry, entrySrc)
	}
	a.ts = b.String()
	a.tsIdx = text.NewIndex(a.ts)
}

// srcFile is one source file in the laid-out text: where it starts
// (byte offset and line).
type srcFile struct {
	rel         string
	start, line int
}

// fileAt returns the index of the file holding offset off of a.ts.
func (a *analyzer) fileAt(off int) int {
	i := sort.Search(len(a.files), func(i int) bool { return a.files[i].start > off }) - 1
	return max(i, 0)
}

// local turns a span of a.ts into its file and the span in that file.
func (a *analyzer) local(sp Span) (string, Span) {
	if len(a.files) == 0 {
		return "", sp
	}
	f := a.files[a.fileAt(sp.Start)]
	if sp.End == 0 && sp.Start == 0 {
		return f.rel, sp
	}
	return f.rel, Span{Start: sp.Start - f.start, End: max(sp.End-f.start, 0)}
}

// localize moves every span of the page from a.ts to its own file.
func (a *analyzer) localize() {
	p := a.page
	for i := range p.Calls {
		c := &p.Calls[i]
		c.File, c.Span = a.local(c.Span)
		_, c.Callee = a.local(c.Callee)
		if c.URL != nil {
			_, c.URL.Span = a.local(c.URL.Span)
			if c.URL.Lit.End > 0 {
				_, c.URL.Lit = a.local(c.URL.Lit)
			}
			for j := range c.URL.Values {
				if v := &c.URL.Values[j]; v.Lit.End > 0 {
					v.LitFile, v.Lit = a.local(v.Lit)
				}
			}
		}
	}
	for i := range p.Headers {
		h := &p.Headers[i]
		h.File, h.Span = a.local(h.Span)
		if h.Remove.End > 0 {
			_, h.Remove = a.local(h.Remove)
		}
	}
	for i := range p.CallSites {
		c := &p.CallSites[i]
		c.File, c.Callee = a.local(c.Callee)
	}
	for i := range p.Tokens {
		t := &p.Tokens[i]
		t.File, t.Span = a.local(t.Span)
	}
	for i := range p.Globals {
		g := &p.Globals[i]
		g.File, g.Span = a.local(g.Span)
	}
	for i := range p.Errors {
		e := &p.Errors[i]
		if e.File == "" && (e.Span.End > 0 || e.Span.Start > 0) {
			e.File, e.Span = a.local(e.Span)
			if e.File == p.Path {
				e.File = ""
			}
		}
	}
	if d := &p.DefaultExport; d.Span.End > 0 {
		_, d.Span = a.local(d.Span)
	}
	// Returns of a function defined in another file say nothing about
	// the page: only the page's own are kept.
	d := &p.DefaultExport
	kept := d.Returns[:0]
	for _, r := range d.Returns {
		if f, sp := a.local(r); f == "" || f == p.Path {
			kept = append(kept, sp)
		}
	}
	d.Returns = kept
	if len(d.Returns) == 0 {
		d.Returns = nil
	}
}

// hasGojaError reports a page that holds gojaError's error.
func hasGojaError(p *Page) bool {
	for _, e := range p.Errors {
		if e.Unsupported && strings.HasPrefix(e.Message, gojaPrefix) {
			return true
		}
	}
	return false
}

const gojaPrefix = "cannot analyse the page: "

// gojaError reports what goja could not parse in esbuild's (valid)
// output: a construct this analysis does not support.
func (a *analyzer) gojaError(e *jsfront.ParseError) {
	start := max(a.toTS(e.Offset), 0)
	a.page.Errors = append(a.page.Errors, SyntaxError{
		Span:        Span{Start: start, End: jslex.TokenEnd(a.ts, start)},
		Message:     gojaPrefix + e.Message,
		Unsupported: true,
	})
}

// analyzer holds one page's texts and position maps during the walk.
type analyzer struct {
	// files are the source files laid out in ts (see layout); srcIdx maps
	// a source-map source index to files.
	files  []srcFile
	srcIdx []int

	m              *jsfront.Model
	prog           *jsfront.Program
	hosts          map[*jsfront.Binding]*hostInfo
	pending        []pendingURL
	defaultBinding *jsfront.Binding // the name the default export is bound to
	page           *Page
	ts             string
	tsIdx          *text.Index[string]
	js             string
	jsIdx          *text.Index[string]
	sm             *sourceMap
	prep           *prepared
	// imported: identifiers of the page's import statements (globals.go)
	imported map[string]bool
}

// toTS maps an offset in esbuild's output to the page, -1 when unmapped.
func (a *analyzer) toTS(off int) int {
	if off < 0 {
		return -1
	}
	p := a.jsIdx.Position(off)
	src, l, c, ok := a.sm.lookup(p.Line, p.Col)
	if !ok || src < 0 || src >= len(a.srcIdx) || a.srcIdx[src] < 0 {
		return -1
	}
	return a.tsIdx.Offset(a.files[a.srcIdx[src]].line+l, c)
}

// start maps a node's start to the page (-1 when unmapped).
func (a *analyzer) start(n ast.Node) int { return a.tokenToTS(a.prog.Offset(n.Idx0())) }

// Start is jsfront.Source's: where a node starts in the laid-out
// sources (a.ts).
func (a *analyzer) Start(n ast.Node) int { return a.start(n) }

// Text is jsfront.Source's: the page text of an expression.
func (a *analyzer) Text(e ast.Node) string { return a.text(a.exprSpan(e)) }

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
	line := a.tsIdx.Position(cand).Line
	from := a.tsIdx.LineStart(line - 1)
	to := a.tsIdx.LineStart(line + 2)
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
		end = jslex.TokenEnd(a.ts, s)
	}
	return Span{Start: s, End: end}
}

// tokSpan maps a single-token node (a literal, an identifier) to its
// span in the page.
func (a *analyzer) tokSpan(n ast.Node) Span {
	s := a.start(n)
	if s < 0 {
		return Span{}
	}
	return Span{Start: s, End: jslex.TokenEnd(a.ts, s)}
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
