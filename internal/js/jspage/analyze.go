package jspage

// Analysing pages: one page alone (AnalyzePage), many in batches
// (AnalyzeBundles), each batch one esbuild build (analyzeAll) whose
// bundles are then read back page by page (fromBundle).

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

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

func analyzeAll(entries []string, read ReadFunc, follow bool) []*Page {
	return analyzeWith(entries, read, follow, false)
}

// SandboxSyntax is what the sandbox's compile (runner.Compile) tells
// esbuild the page may not use as written, and the page analysis builds
// with the same: dynamic import() is lowered to a require that throws,
// and top-level await is an error, because a page runs as one script (an
// IIFE), not as a module that could be awaited. A fresh map each call.
func SandboxSyntax() map[string]bool {
	return map[string]bool{"dynamic-import": false, "top-level-await": false}
}

// BuildMessage is the author's wording of an esbuild error text, for the
// page analysis and the runner's compile alike: an error SandboxSyntax
// causes names the sandbox's reason, not esbuild's target settings.
func BuildMessage(esbuildText string) string {
	if strings.HasPrefix(esbuildText, "Top-level await is not available") {
		return "top-level await does not run in the sandbox: a page runs as one script, not as a module; await inside the default export instead"
	}
	return esbuildText
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
	if !batch && !l.readEntry(pages[0]) {
		return pages
	}
	res := l.build(entries, follow, lower)
	if batch && len(res.Errors) > 0 {
		// Which page an error belongs to is each page's own build's to say.
		for i, e := range entries {
			pages[i] = analyze(e, read, follow)
		}
		return pages
	}
	if len(res.Errors) > 0 {
		pages[0].buildErrors(l, entries[0], res.Errors)
		return pages
	}
	l.readBundles(pages, entries, res, read, follow, batch, lower)
	return pages
}

// analyzeAll's phases, in order: readEntry (a single page is read before
// any build, so that one that cannot be read says so), build (one esbuild
// build of every entry, its files resolved and loaded by resolver), then
// buildErrors (the build's errors, on a single page) or readBundles (each
// entry's bundle, source map and metafile entry read back into its Page).

// readEntry reads a single page before the build; false (with the page's
// error set) when it cannot be read.
func (l *loader) readEntry(page *Page) bool {
	if _, err := l.load("", page.Path); err != nil {
		page.Files = l.files(page.Path, nil)
		if deep := l.nestingErrors(page.Path); len(deep) > 0 {
			page.Errors = append(page.Errors, deep...)
		} else {
			page.Errors = append(page.Errors, SyntaxError{Message: err.Error(), Unsupported: true})
		}
		return false
	}
	return true
}

// resolver is the esbuild plugin that resolves and loads the files of the
// plugin directory through the loader: entries keep the names they were
// given, relative imports are followed (when follow) to the first of
// their candidates that exists, everything else is external.
func (l *loader) resolver(entries []string, follow bool) api.Plugin {
	return api.Plugin{Name: "plugin-dir", Setup: func(b api.PluginBuild) {
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
			for _, c := range jslex.ImportCandidates(rel) {
				if _, err := l.load(args.Importer, c); err == nil {
					return api.OnResolveResult{Path: c, Namespace: pluginNS}, nil
				} else if !errors.Is(err, fs.ErrNotExist) {
					return api.OnResolveResult{}, fmt.Errorf("import %q: %v", args.Path, err)
				}
			}
			return api.OnResolveResult{}, fmt.Errorf("import %q: no file %s in the plugin", args.Path, strings.Join(jslex.ImportCandidates(rel), ", "))
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: pluginNS}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			s, err := l.load("", args.Path) // an entry, or a file resolved above (read once)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			return api.OnLoadResult{Contents: &s, Loader: loaderOf(args.Path)}, nil
		})
	}}
}

// build makes one esbuild build of the entries ("e<i>.js" and its map
// each), and waits out esbuild's hold on a big build.
func (l *loader) build(entries []string, follow, lower bool) api.BuildResult {
	supported := SandboxSyntax()
	for _, f := range []string{"for-await", "async-generator", "decorators", "using"} {
		supported[f] = false // lowered for goja's parser
	}
	if lower {
		for _, f := range lowered {
			supported[f] = false
		}
	}
	resolver := l.resolver(entries, follow)
	var points []api.EntryPoint
	for i, e := range entries {
		points = append(points, api.EntryPoint{InputPath: e, OutputPath: fmt.Sprintf("e%d", i)})
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
	return res
}

// buildErrors sets the errors of a single page's failed build, placed in
// the files they are in.
func (page *Page) buildErrors(l *loader, entry string, errs []api.Message) {
	page.Files = l.files(entry, nil)
	for _, m := range errs {
		e := SyntaxError{Message: BuildMessage(m.Text)}
		if loc := m.Location; loc != nil {
			rel := strings.TrimPrefix(loc.File, pluginNS+":")
			if rel != entry {
				e.File = rel
			}
			if t, ok := l.texts[rel]; ok {
				e.Span.Start = text.NewIndex(t).OffsetUTF8(loc.Line-1, loc.Column)
				e.Span.End = min(e.Span.Start+loc.Length, len(t))
			}
		}
		page.Errors = append(page.Errors, e)
	}
	page.Errors = append(page.Errors, l.nestingErrors(entry)...)
}

// readBundles reads each entry's bundle and source map out of the build
// into its Page; a batched page whose bundle is too big is analysed on
// its own.
func (l *loader) readBundles(pages []*Page, entries []string, res api.BuildResult, read ReadFunc, follow, batch, lower bool) {
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
