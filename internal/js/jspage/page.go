// Package js analyses a function-tool page (TypeScript or JavaScript)
// together with the files it imports: the host API calls they make
// (http.fetch, collections.*), the set of URLs each fetch may use, the
// page's default export, the HTTP header names set and the token-like
// literals held.
//
// It is a leaf package: plain structs with byte offsets into the ORIGINAL
// source files, no dependency on the analysis core; files are read
// through a callback.
//
// How: esbuild bundles the page with its relative imports (the way the
// runner does: one scope, a source map listing every file; several pages
// at once share one build, AnalyzeBundles); the bundle goes through the
// JavaScript front end, internal/js/jsfront (parse, scope model, value-set
// evaluator), whose walk calls this package's hooks (host.go) at every
// call, assignment, header object and literal; fetch URLs are evaluated
// once the walk has seen every call site. Every position goes back
// through the source map to its file, and ends are found by
// re-tokenizing the source (source maps give starts only).
//
// Where text is checked before a parser sees it: every file esbuild
// parses is read through loader.load; the bundle goja parses goes
// through jsfront.Parse.
//
// Architecture invariant: AnalyzeBundles never panics on any input, reads
// nothing but what its callback returns (goja's source-map loading is
// off), and bounds its work (values.go).
package jspage

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja/ast"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Span is a half-open byte range in the page source (the text layer's).
type Span = text.Span

// URLKind says how much of a fetch URL is known statically.
type URLKind = jsfront.Kind

// The URL kinds (jsfront's).
const (
	// Unknown: nothing usable is known (Reason says why).
	Unknown = jsfront.Unknown
	// Prefix: Value is a known prefix; the rest is computed at run time.
	Prefix = jsfront.Prefix
	// Exact: Value is the whole URL.
	Exact = jsfront.Exact
)

// URLValue is one URL a fetch argument may hold.
type URLValue struct {
	Kind   URLKind
	Value  string // the URL (Exact) or its known start (Prefix)
	Reason string // for Prefix/Unknown: what is not known statically
	Lit    Span   // the literal Value starts with, End == 0 when none
	// LitFile is the file Lit is in (a constant may live in an imported
	// file).
	LitFile string
}

// URLArg is the first argument of an http.fetch call.
type URLArg struct {
	// Values is every URL the argument may hold: one entry when the code
	// allows one answer, several for a ternary, a switch, a record
	// indexed at run time, a helper called with several bases. Kind,
	// Value, Reason and Lit below summarise the set (its common start).
	Values []URLValue
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
	// File is the plugin-relative file the call is in: the page, or a
	// file it imports (all spans of the call are in that file).
	File   string
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
	// Returns are where the default export function's value comes from,
	// when it is a function of the page itself: each of its own return
	// statements (the "return" keyword), or the start of an arrow
	// function's expression body. Spans are in the page.
	Returns []Span
}

// Header is an HTTP header name the page sets in code.
type Header struct {
	File string // the file the name is in
	Name string
	Span Span // the name (a key, or a string argument)
	// Remove is the text to delete to drop the header when it is a
	// property of an object literal (with its comma, or its whole line);
	// Remove.End == 0 otherwise.
	Remove Span
}

// Token is a string literal that looks like a credential.
type Token struct {
	File string // the file the literal is in
	Span Span
	Kind string // "GitHub token", "JWT", …
}

// SyntaxError is an error of the page (or a construct this analysis
// cannot read, when Unsupported is set).
type SyntaxError struct {
	File        string // "" for the page itself
	Span        Span
	Message     string
	Unsupported bool
}

// Page is everything AnalyzePage found.
type Page struct {
	Path string
	// Files are the plugin-relative files the analysis read: the page
	// first, then every file it imports (transitively), each with the
	// SHA-256 of the content read, so that a cache can tell whether an
	// edit elsewhere changes this page's answer.
	Files []FileHash
	// Via maps each imported file to the import in the page that brings
	// it in (directly or through other files): the span of the module
	// specifier string, so that what a lib file does can be shown where
	// the page imports it.
	Via           map[string]Span
	Calls         []HostCall
	DefaultExport DefaultExport
	Headers       []Header
	Tokens        []Token
	Errors        []SyntaxError
	// Globals are uses of globals the sandbox lacks (AbsentGlobals).
	Globals []GlobalRef
	// CallSites are the callees of every call expression (f, a.b.c,
	// h.fetch), in source order per file: the runner places each frame
	// of an error's stack at the call it was making.
	CallSites []CallSite
}

// CallSite is the callee expression of one call.
type CallSite struct {
	File   string // plugin-relative, like HostCall.File
	Callee Span
}

// MaxSize is the largest page analysed; a bigger one yields an error.
const MaxSize = jslex.MaxSource

// FileHash is one file an analysis read, with the hash of its content,
// or a file it looked for and did not find (Missing): creating it
// changes the answer too.
type FileHash struct {
	Rel     string
	Hash    [32]byte
	Missing bool
}

// ReadFunc reads a plugin file by its plugin-relative path. An error
// wrapping fs.ErrNotExist means "no such file" (the next candidate of an
// import is tried); any other error is reported on the import.
type ReadFunc func(rel string) ([]byte, error)

// AnalyzePage analyses one page on its own: its imports are not read
// (imported names are unknown). path decides the loader (.ts, .mts,
// .cts, .tsx → TypeScript; anything else → JavaScript).
func AnalyzePage(pagePath string, src []byte) *Page {
	return analyze(pagePath, func(rel string) ([]byte, error) {
		if rel == pagePath {
			return src, nil
		}
		return nil, fs.ErrNotExist
	}, false)
}

// ImportCandidates lists the files a relative import may name, in the
// order they are tried (the runner's order).
func ImportCandidates(rel string) []string {
	switch path.Ext(rel) {
	case ".ts", ".js", ".mjs", ".json":
		return []string{rel}
	}
	return []string{rel + ".ts", rel + ".js", rel + "/index.ts", rel + "/index.js"}
}

// cleanRel joins an import to its importer's directory; ok is false when
// the result leaves the plugin directory.
func cleanRel(importer, spec string) (string, bool) {
	rel := path.Join(path.Dir(importer), spec)
	if rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

func loaderOf(rel string) api.Loader {
	switch strings.ToLower(path.Ext(rel)) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	case ".json":
		return api.LoaderJSON
	}
	return api.LoaderJS
}

const pluginNS = "plugin"

func analyze(entry string, read ReadFunc, follow bool) *Page {
	return analyzeAll([]string{entry}, read, follow)[0]
}

// AnalyzeBundles analyses pages, each together with the files it imports
// (relative imports, transitively, read through read), the way the
// runner bundles them: esbuild hoists every module into one scope, so
// imported constants, functions, classes and objects resolve across
// files, and the source map sends every position back to its own file.
// An import that is not relative ("lodash", "node:fs") stays unresolved:
// what it provides is unknown. A relative import that leaves the plugin
// or names no file is an error on the import.
//
// Pages go through esbuild builds that have several pages as entry
// points: a file several pages import is read and parsed once per build.
// The answers are those of a build per page (a page whose bundle fails, or
// is too big, is analysed again on its own, so that its errors are its
// own).
//
// A build holds the syntax trees of all its files at once (about 30 ×
// their size), so the pages go in builds of at most BatchBytes of page
// text, in their order; a larger page has a build of its own. Twenty
// pages of 1 KB to 2 MB in one build held 250 MB.
func AnalyzeBundles(entries []string, read ReadFunc) []*Page {
	pages := make([]*Page, 0, len(entries))
	for _, b := range batches(entries, read) {
		big := b.size > BatchBytes
		if big {
			bigAnalyses <- struct{}{}
		}
		pages = append(pages, analyzeAll(b.entries, read, true)...)
		if big {
			<-bigAnalyses
		}
	}
	return pages
}

// bigAnalyses admits one analysis of a page over BatchBytes at a time in
// the process (a language server checks its plugins concurrently): at its
// peak one holds about 45 × the page's size (a 2 MB page, 91 MB).
var bigAnalyses = make(chan struct{}, 1)

// batch is one build's pages and the size of their text.
type batch struct {
	entries []string
	size    int
}

// batches cuts entries, in order, into runs of at most BatchBytes of
// text; an entry larger than that is a run of its own.
func batches(entries []string, read ReadFunc) []batch {
	var out []batch
	for len(entries) > 0 {
		n, total := 0, 0
		for n < len(entries) {
			b, _ := read(entries[n])
			if n > 0 && total+len(b) > BatchBytes {
				break
			}
			total += len(b)
			n++
		}
		out = append(out, batch{entries[:n:n], total})
		entries = entries[n:]
	}
	return out
}

// esbuildKeepsBuild is how long esbuild keeps a build's context after
// Build returns (250 ms in v0.28), with some margin for its goroutine to
// run. TestEsbuildLetsGoOfItsBuild checks that it is enough.
const esbuildKeepsBuild = 300 * time.Millisecond

// BatchBytes is the most page text one build of AnalyzeBundles takes.
const BatchBytes = 256 << 10

// loader reads the files of a build through a ReadFunc, once each, and
// remembers what it read and what it looked for in vain.
type loader struct {
	read   ReadFunc
	limit  int // bytes all files together may have
	mu     sync.Mutex
	texts  map[string]string
	hashes map[string][32]byte
	order  []string // the files read, in order
	misses []miss
	total  int
	deep   []SyntaxError // files refused for their nesting, at the offending token
}

// nestingErrors are the nesting refusals of the build, File "" for entry.
func (l *loader) nestingErrors(entry string) []SyntaxError {
	out := make([]SyntaxError, 0, len(l.deep))
	for _, e := range l.deep {
		if e.File == entry {
			e.File = ""
		}
		out = append(out, e)
	}
	return out
}

// miss is a file an import of importer looked for and did not find.
type miss struct{ importer, rel string }

func (l *loader) load(importer, rel string) (string, error) {
	b, err := l.read(rel)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			l.misses = append(l.misses, miss{importer, rel})
		}
		return "", err
	}
	if t, seen := l.texts[rel]; seen {
		return t, nil
	}
	l.total += len(b)
	if len(b) > MaxSize || l.total > l.limit {
		return "", fmt.Errorf("%s makes the page and its imports %d bytes; pages over %d bytes are not analysed", rel, l.total, MaxSize)
	}
	// Deep nesting would overflow esbuild's or goja's stack (fatal in Go)
	// and mass redeclarations stall esbuild: measured first, with a
	// tokenizer that keeps no stack.
	if e := jslex.CheckCode(string(b)); e != nil {
		l.deep = append(l.deep, SyntaxError{File: rel, Span: Span{Start: e.Offset, End: jslex.TokenEnd(string(b), e.Offset)}, Message: e.Message})
		return "", fmt.Errorf("%s: %s", rel, e.Message)
	}
	l.texts[rel] = string(b)
	l.hashes[rel] = sha256.Sum256(b)
	l.order = append(l.order, rel)
	return l.texts[rel], nil
}

// files lists what a page read: its entry first, then the files of its
// bundle in the order read (all the loader read when inBundle is nil),
// then the imports it looked for in vain.
func (l *loader) files(entry string, inBundle map[string]bool) []FileHash {
	out := []FileHash{}
	if h, ok := l.hashes[entry]; ok {
		out = append(out, FileHash{Rel: entry, Hash: h})
	}
	for _, rel := range l.order {
		if rel != entry && (inBundle == nil || inBundle[rel]) {
			out = append(out, FileHash{Rel: rel, Hash: l.hashes[rel]})
		}
	}
	for _, m := range l.misses {
		if inBundle == nil || inBundle[m.importer] {
			out = append(out, FileHash{Rel: m.rel, Missing: true})
		}
	}
	return out
}

func analyzeAll(entries []string, read ReadFunc, follow bool) []*Page {
	return analyzeWith(entries, read, follow, false)
}

// lowered is what esbuild lowers, for a page goja could not parse, in a
// second build of that page alone (analyzeWith's lower): class fields
// and private members. goja's parser rejects some of them that are
// valid (a field named get, set or static: `get = f.bind(this)`), and
// lowered they are assignments in the constructor and WeakMap helpers,
// code it reads, with every position mapped back through the source map
// as before. Pages that parse as they are keep their first build, so
// their analysis does not change.
var lowered = []string{
	"class-field", "class-static-field",
	"class-private-field", "class-private-method", "class-private-accessor",
	"class-private-static-field", "class-private-static-method", "class-private-static-accessor",
	"class-private-brand-check",
}

func analyzeWith(entries []string, read ReadFunc, follow, lower bool) (pages []*Page) {
	pages = make([]*Page, len(entries))
	for i, e := range entries {
		pages[i] = &Page{Path: e}
	}
	defer func() {
		if e := recover(); e != nil {
			for _, page := range pages {
				page.Calls, page.Headers, page.Tokens, page.CallSites = nil, nil, nil, nil
				page.Errors = append(page.Errors, SyntaxError{Message: fmt.Sprintf("internal error while analysing the page (please report this): %v", e), Unsupported: true})
			}
		}
	}()
	batch := len(entries) > 1
	l := &loader{read: read, limit: MaxSize * len(entries), texts: map[string]string{}, hashes: map[string][32]byte{}}
	if !batch {
		if _, err := l.load("", entries[0]); err != nil {
			pages[0].Files = l.files(entries[0], nil)
			if deep := l.nestingErrors(entries[0]); len(deep) > 0 {
				pages[0].Errors = append(pages[0].Errors, deep...)
			} else {
				pages[0].Errors = append(pages[0].Errors, SyntaxError{Message: err.Error(), Unsupported: true})
			}
			return pages
		}
	}
	isEntry := map[string]bool{}
	var points []api.EntryPoint
	for i, e := range entries {
		isEntry[e] = true
		points = append(points, api.EntryPoint{InputPath: e, OutputPath: fmt.Sprintf("e%d", i)})
	}
	resolver := api.Plugin{Name: "plugin-dir", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
			if args.Kind == api.ResolveEntryPoint {
				// esbuild hands an entry "code/x.ts" back as "./code/x.ts"
				// when the process's working directory holds that file (a
				// server started in the plugin's folder, `check .`): the
				// entry keeps the name it was given, or every position of
				// the page is looked up under a name nothing else uses.
				for _, e := range entries {
					if path.Clean(e) == path.Clean(args.Path) {
						return api.OnResolveResult{Path: e, Namespace: pluginNS}, nil
					}
				}
				return api.OnResolveResult{Path: args.Path, Namespace: pluginNS}, nil
			}
			if !follow || !(strings.HasPrefix(args.Path, "./") || strings.HasPrefix(args.Path, "../")) {
				return api.OnResolveResult{Path: args.Path, External: true}, nil // unknown: what it provides is not analysed
			}
			rel, ok := cleanRel(args.Importer, args.Path)
			if !ok {
				// Unknown here; the page-import-refused rule reports it
				// (checker.ResolvePageImport, the compiler's own check).
				return api.OnResolveResult{Path: args.Path, External: true}, nil
			}
			for _, c := range ImportCandidates(rel) {
				if _, err := l.load(args.Importer, c); err == nil {
					return api.OnResolveResult{Path: c, Namespace: pluginNS}, nil
				} else if !errors.Is(err, fs.ErrNotExist) {
					return api.OnResolveResult{}, fmt.Errorf("import %q: %v", args.Path, err)
				}
			}
			return api.OnResolveResult{}, fmt.Errorf("import %q: no file %s in the plugin", args.Path, strings.Join(ImportCandidates(rel), ", "))
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: pluginNS}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			s, err := l.load("", args.Path) // an entry, or a file resolved above (read once)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			return api.OnLoadResult{Contents: &s, Loader: loaderOf(args.Path)}, nil
		})
	}}
	supported := map[string]bool{
		"for-await": false, "async-generator": false, "dynamic-import": false,
		"decorators": false, "using": false,
	}
	if lower {
		for _, f := range lowered {
			supported[f] = false
		}
	}
	res := api.Build(api.BuildOptions{
		EntryPointsAdvanced: points,
		Bundle:              true,
		Write:               false,
		Format:              api.FormatESModule,
		Platform:            api.PlatformNeutral,
		Sourcemap:           api.SourceMapExternal,
		// Without the texts in the map: esbuild v0.28.2 loops forever
		// quoting a text that ends inside a UTF-8 sequence ("//\xd0").
		SourcesContent: api.SourcesContentExclude,
		// One line, no indentation: indented output grows with the
		// square of the nesting depth.
		MinifyWhitespace: true,
		Outdir:           "/out",
		Target:           api.ESNext,
		Charset:          api.CharsetUTF8,
		LegalComments:    api.LegalCommentsNone,
		LogLevel:         api.LogLevelSilent,
		TreeShaking:      api.TreeShakingFalse,
		Metafile:         true,
		Plugins:          []api.Plugin{resolver},
		Supported:        supported,
	})
	phase("build")
	// esbuild keeps a finished build's context, with the syntax tree of
	// every file it parsed (about 30 × their size), reachable for 250 ms
	// after Build returns (its dev server reuses a recent build: see
	// rebuild in esbuild's pkg/api/api_impl.go). After a build of more
	// than BatchBytes the analysis waits that out before it makes its own
	// trees: on a 2 MB page the two were about 60 + 45 MB live together,
	// the language server's highest peak (docs/lsp.md, "Memory").
	if l.total > BatchBytes {
		time.Sleep(esbuildKeepsBuild)
	}
	if batch && len(res.Errors) > 0 {
		// Which page an error belongs to is each page's own build's to say.
		for i, e := range entries {
			pages[i] = analyze(e, read, follow)
		}
		return pages
	}
	if len(res.Errors) > 0 {
		page := pages[0]
		page.Files = l.files(entries[0], nil)
		for _, m := range res.Errors {
			e := SyntaxError{Message: m.Text}
			if loc := m.Location; loc != nil {
				rel := strings.TrimPrefix(loc.File, pluginNS+":")
				if rel != entries[0] {
					e.File = rel
				}
				if t, ok := l.texts[rel]; ok {
					e.Span.Start = text.NewIndex(t).OffsetUTF8(loc.Line-1, loc.Column)
					e.Span.End = min(e.Span.Start+loc.Length, len(t))
				}
			}
			page.Errors = append(page.Errors, e)
		}
		page.Errors = append(page.Errors, l.nestingErrors(entries[0])...)
		return pages
	}
	meta := readMetafile(res.Metafile)
	for i, entry := range entries {
		name := fmt.Sprintf("e%d.js", i)
		var jsText string
		var mapData []byte
		for k := range res.OutputFiles {
			f := &res.OutputFiles[k]
			switch path.Base(f.Path) {
			case name + ".map":
				mapData = f.Contents
			case name:
				jsText = string(f.Contents)
			default:
				continue
			}
			f.Contents = nil // taken: held no longer than the analysis needs it
		}
		var inBundle map[string]bool
		size := 0
		if batch {
			inBundle = meta.bundleOf(name)
			for rel := range inBundle {
				size += len(l.texts[rel])
			}
			if size > MaxSize { // the page and its imports are too big: say so on its own
				pages[i] = analyze(entry, read, follow)
				continue
			}
		}
		pages[i].Files = l.files(entry, inBundle)
		pages[i].Via = meta.importSites(entry, l.texts[entry])
		if !pages[i].fromBundle(entry, jsText, mapData, l.texts) && !lower {
			// Kept only when it parses: otherwise the first error, at
			// its place in the code as written, says more.
			if lp := analyzeWith([]string{entry}, read, follow, true)[0]; !hasGojaError(lp) {
				pages[i] = lp
			}
		}
	}
	return pages
}

// fromBundle analyses the bundle esbuild made of the page; false when
// goja could not parse it.
func (page *Page) fromBundle(entry, jsText string, mapData []byte, texts map[string]string) bool {
	sm, sources := parseSourceMap(mapData)
	a := &analyzer{page: page, js: jsText, jsIdx: text.NewIndex(jsText), sm: sm, hosts: map[*jsfront.Binding]*hostInfo{}}
	a.layout(entry, texts[entry], sources, texts)
	phase("sourcemap")
	// jsfront.Parse in two steps: the tokens are read (prepareJS) and
	// dropped before goja parses (on a 2 MB page they are 11 MB), and the
	// rewritten code once parsed; the walk needs the AST only.
	lex := jslex.Prepare(jsText, jslex.Options{DefaultVar: "var " + defaultVar + " = "})
	a.prep = prepareJS(jsText, lex)
	code := lex.Code
	lex.Toks, lex.Stmts, lex.Code = nil, nil, nil
	prog := &jsfront.Program{Src: jsText}
	perr := prog.ParseCode(code)
	phase("parse")
	a.prog = prog
	if perr != nil {
		a.gojaError(perr)
		a.localize()
		return false
	}
	a.m = jsfront.NewModel(a, a)
	a.run(prog.Body)
	a.localize()
	phase("localize")
	return true
}

// phaseHook, when set (the memory benchmark), is called at the end of
// each phase of an analysis, while what the next phase needs is live.
var phaseHook func(name string)

func phase(name string) {
	if phaseHook != nil {
		phaseHook(name)
	}
}

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
		Span:        Span{Start: start, End: tokenEnd(a.ts, start)},
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
		end = tokenEnd(a.ts, s)
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
	return Span{Start: s, End: tokenEnd(a.ts, s)}
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

// metafile is what the analysis reads of esbuild's metafile: every
// input's imports, and every output's inputs.
type metafile struct {
	Inputs map[string]struct {
		Imports []struct {
			Path     string `json:"path"`
			Original string `json:"original"`
			External bool   `json:"external"`
		} `json:"imports"`
	} `json:"inputs"`
	Outputs map[string]struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	} `json:"outputs"`
}

func readMetafile(text string) *metafile {
	var meta metafile
	if json.Unmarshal([]byte(text), &meta) != nil {
		return &metafile{}
	}
	return &meta
}

// bundleOf returns the plugin files of the output named name (its base
// name).
func (meta *metafile) bundleOf(name string) map[string]bool {
	out := map[string]bool{}
	for p, o := range meta.Outputs {
		if path.Base(p) != name {
			continue
		}
		for in := range o.Inputs {
			if rel, ok := strings.CutPrefix(in, pluginNS+":"); ok {
				out[rel] = true
			}
		}
	}
	return out
}

// importSites reads the metafile: for every file the page's bundle
// holds, the page's own import through which it is reached (breadth
// first).
func (meta *metafile) importSites(entry, entrySrc string) map[string]Span {
	name := func(p string) string { return strings.TrimPrefix(p, pluginNS+":") }
	via := map[string]Span{}
	type item struct {
		rel string
		sp  Span
	}
	var queue []item
	for _, im := range meta.Inputs[pluginNS+":"+entry].Imports {
		if im.External {
			continue
		}
		sp, ok := specifierSpan(entrySrc, im.Original)
		if !ok {
			continue
		}
		if _, seen := via[name(im.Path)]; !seen {
			via[name(im.Path)] = sp
			queue = append(queue, item{name(im.Path), sp})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		for _, im := range meta.Inputs[pluginNS+":"+it.rel].Imports {
			r := name(im.Path)
			if _, seen := via[r]; seen || im.External || r == entry {
				continue
			}
			via[r] = it.sp
			queue = append(queue, item{r, it.sp})
		}
	}
	return via
}

// specifierSpan finds the quoted module specifier spec in the page.
func specifierSpan(src, spec string) (Span, bool) {
	for _, q := range []string{"\"", "'"} {
		if i := strings.Index(src, q+spec+q); i >= 0 {
			return Span{Start: i, End: i + len(spec) + 2}, true
		}
	}
	return Span{}, false
}
