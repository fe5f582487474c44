package runner

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// ScriptName is the name the compiled page carries in QuickJS stack traces.
const ScriptName = "page.js"

// Program is a page compiled to one script for the sandbox.
type Program struct {
	Page  string // plugin-relative path of the entry page
	Code  string // IIFE script that sets globalThis.__page = { default: … }
	Map   *sourcemap.Consumer
	files map[string][32]byte // every input file (rel) → sha256, for the cache
}

// CompileError is a page that does not build: a syntax or type-stripping
// error, or a refused import. File/Line/Column (1-based) locate it.
type CompileError struct {
	File    string
	Line    int
	Column  int
	Message string
}

func (e *CompileError) Error() string {
	if e.File == "" {
		return e.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Message)
}

const pluginNS = "plugin"

// entryNS holds the one module esbuild starts from: it imports the page
// and sets globalThis.__page to { default: <the page's default export> }.
// With the page itself as the entry, the IIFE returned the module's
// namespace built by esbuild's CommonJS helpers (__toCommonJS,
// __copyProps: a getter per export), which every run evaluated again:
// ~0.17 ms of the sandbox's interpreter for lookupBook, more than the
// rest of its page. Reading page.default of a namespace import compiles
// to the binding itself; a page without a default export gets
// { default: undefined } and the sandbox's own error, as before.
const entryNS = "page-entry"

// Compile bundles a page (TS → JS, one script) with esbuild. Relative
// imports inside the plugin directory are bundled; every other import
// (bare packages, qjs:std, node:fs, URLs, paths leaving the directory) is
// refused. import() expressions never reach the sandbox: literal ones are
// resolved like static imports (and refused the same way), computed ones
// are compiled into a require() call that throws — the sandbox has no
// module system a page can reach.
func Compile(p *checker.Plugin, page string) (*Program, error) {
	entryPath, err := checker.Clean(page)
	if err != nil {
		return nil, &CompileError{File: page, Message: fmt.Sprintf("cannot read the page: %v", err)}
	}
	switch path.Ext(entryPath) {
	case ".ts", ".mts", ".js", ".mjs":
	default: // a JSON file (fixtures.json!) bound as a page would be its data
		return nil, &CompileError{File: entryPath, Message: "not compiled: a page is a .ts, .mts, .js or .mjs file"}
	}
	files := map[string][32]byte{}
	var mu sync.Mutex
	var limitErr *CompileError // a file over a size or nesting limit
	resolver := api.Plugin{Name: "plugin-dir", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Kind == api.ResolveEntryPoint {
				return api.OnResolveResult{Path: entryPath, Namespace: entryNS}, nil
			}
			if a.Namespace == entryNS { // the page, imported by the entry
				return api.OnResolveResult{Path: entryPath, Namespace: pluginNS}, nil
			}
			// What a page may import is analysis's one definition (check
			// reports the same refusals).
			rel, err := checker.ResolvePageImport(p.FS, p.Dir, a.Importer, a.Path)
			if err != nil {
				return api.OnResolveResult{}, err
			}
			return api.OnResolveResult{Path: rel, Namespace: pluginNS}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: entryNS}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := "import * as page from " + strconv.Quote(entryPath) + ";\nglobalThis.__page = { default: page.default };\n"
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: pluginNS}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			f, err := p.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, fmt.Errorf("cannot read %s: %v", a.Path, err)
			}
			b := f.Text
			s := string(b)
			// esbuild's parser recurses per nesting level, and a Go stack
			// overflow is fatal: measure first.
			if e := jslex.CheckLimits(s); e != nil {
				pos := f.Position(e.Offset)
				ce := &CompileError{File: a.Path, Line: pos.Line + 1, Column: pos.Col + 1, Message: e.Message}
				mu.Lock()
				if limitErr == nil {
					limitErr = ce
				}
				mu.Unlock()
				return api.OnLoadResult{}, ce
			}
			mu.Lock()
			files[a.Path] = sha256.Sum256(b)
			mu.Unlock()
			return api.OnLoadResult{Contents: &s, Loader: loaderFor(a.Path)}, nil
		})
	}}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{entryPath},
		Bundle:      true,
		Write:       false,
		Format:      api.FormatIIFE,
		Platform:    api.PlatformNeutral,
		Target:      api.ES2022,
		// One line, no indentation: indented output grows with the
		// square of the nesting depth. Stack positions go through the map.
		MinifyWhitespace: true,
		Sourcemap:        api.SourceMapExternal,
		Outdir:           "/out",
		LogLevel:         api.LogLevelSilent,
		Charset:          api.CharsetUTF8,
		Plugins:          []api.Plugin{resolver},
		Supported:        jspage.SandboxSyntax(),
		AbsWorkingDir:    os.TempDir(),
	})
	if limitErr != nil {
		return nil, limitErr
	}
	if len(res.Errors) > 0 {
		return nil, compileError(res.Errors[0], entryPath)
	}
	prog := &Program{Page: entryPath, files: files}
	for _, f := range res.OutputFiles {
		switch {
		case strings.HasSuffix(f.Path, ".map"):
			m, err := sourcemap.Parse("", f.Contents)
			if err != nil {
				return nil, &CompileError{File: entryPath, Message: "source map: " + err.Error()}
			}
			prog.Map = m
		case strings.HasSuffix(f.Path, ".js"):
			prog.Code = string(f.Contents)
		}
	}
	if prog.Code == "" {
		return nil, &CompileError{File: entryPath, Message: "esbuild produced no output"}
	}
	return prog, nil
}

func loaderFor(rel string) api.Loader {
	switch path.Ext(rel) {
	case ".ts", ".mts":
		return api.LoaderTS
	case ".json":
		return api.LoaderJSON
	}
	return api.LoaderJS
}

func compileError(m api.Message, page string) *CompileError {
	e := &CompileError{File: page, Message: jspage.BuildMessage(m.Text)}
	if m.Location != nil {
		e.File = sourceName(m.Location.File)
		e.Line = m.Location.Line
		e.Column = m.Location.Column + 1 // esbuild columns are 0-based (bytes)
		if m.Location.LineText != "" && m.Location.Column <= len(m.Location.LineText) {
			e.Column = text.UTF16Len(m.Location.LineText[:m.Location.Column]) + 1
		}
	}
	return e
}

// sourceName strips the namespace esbuild puts in front of plugin paths.
func sourceName(s string) string {
	s = strings.TrimPrefix(s, pluginNS+":")
	s = filepath.ToSlash(s)
	return s
}

// frameRE matches a QuickJS stack position "page.js:12:5".
var frameRE = regexp.MustCompile(`page\.js:(\d+):(\d+)`)

// MapStack rewrites every page.js:line:col in a QuickJS stack to the .ts
// position it came from (plugin-relative path, 1-based line and column).
// It returns the top mapped frame too.
func (p *Program) MapStack(stack string) (mapped string, file string, line, col int) {
	// Frames of the sandbox's own glue (<prelude>, <start>, <deliver>, …)
	// say nothing to the author.
	var kept []string
	for _, l := range strings.Split(stack, "\n") {
		if !strings.Contains(l, "(<") {
			kept = append(kept, l)
		}
	}
	stack = strings.Join(kept, "\n")
	if p == nil || p.Map == nil {
		return stack, "", 0, 0
	}
	mapped = frameRE.ReplaceAllStringFunc(stack, func(m string) string {
		sub := frameRE.FindStringSubmatch(m)
		gl, _ := strconv.Atoi(sub[1])
		gc, _ := strconv.Atoi(sub[2])
		src, _, l, c, ok := p.Map.Source(gl, gc-1)
		if !ok || src == "" {
			return m
		}
		src = mapSource(src)
		if file == "" {
			file, line, col = src, l, c+1
		}
		return fmt.Sprintf("%s:%d:%d", src, l, c+1)
	})
	return mapped, file, line, col
}

// mapSource turns a source-map source ("../plugin:code/x.ts") back into
// the plugin-relative path.
func mapSource(s string) string {
	if i := strings.Index(s, pluginNS+":"); i >= 0 {
		return s[i+len(pluginNS)+1:]
	}
	return strings.TrimLeft(s, "./")
}

// fresh reports whether every input file of the program still has the
// content it was compiled from.
func (p *Program) fresh(pl *checker.Plugin) bool {
	for rel, h := range p.files {
		f, err := pl.ReadFile(rel)
		if err != nil || sha256.Sum256(f.Text) != h {
			return false
		}
	}
	return true
}
