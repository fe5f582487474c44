package rules

import (
	"errors"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// PageImportRefused reports what a page (or a file it imports) imports
// and the compiler refuses: anything but a relative file under code/.
var PageImportRefused = &checker.Rule{
	Code:     "page-import-refused",
	Severity: checker.Error,
	Title:    "page imports a file outside code/ or a module the sandbox lacks",
	Doc: "A page is bundled with what it imports, and only files under the plugin's `code/` directory " +
		"(`.ts`, `.mts`, `.js`, `.mjs`, `.json`) may be part of the bundle: `fixtures.json` (the dev " +
		"secrets), `plugin.json`, `.plugin/` and every other file outside `code/` are unreachable from page " +
		"code, through `..`, a symlink or `import()` alike. Packages and `qjs:`, `node:` or URL modules do " +
		"not exist in the sandbox. A page bound in `tools[].page` must itself be a `.ts`, `.mts`, `.js` or " +
		"`.mjs` file. `plugin-lsp run` refuses the same imports with a CompileError. Move shared code and " +
		"data into `code/`; a page reaches the network with `http.fetch` and credentials through the broker.",
	Lang:   "ts",
	Before: "import fixtures from \"../fixtures.json\";",
	After:  "import data from \"./data.json\"; // code/data.json",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		for _, t := range p.Manifest.Tools {
			page, _ := checker.Str(t.Page)
			if rel, found := p.ResolvePage(page); found {
				switch path.Ext(rel) {
				case ".ts", ".mts", ".js", ".mjs":
				default:
					pass.Reportf(checker.ManifestName, checker.SpanOf(t.Page), "page %q is not code: a page is a .ts, .mts, .js or .mjs file (it would be bundled as data)", page)
				}
			}
		}
		// Every file the pages reach, each once.
		seen := map[string]bool{}
		var queue []string
		for _, pi := range loadPages(pass) {
			if !seen[pi.Rel] {
				seen[pi.Rel] = true
				queue = append(queue, pi.Rel)
			}
		}
		for len(queue) > 0 && len(seen) <= 1000 {
			rel := queue[0]
			queue = queue[1:]
			if path.Ext(rel) == ".json" {
				continue
			}
			f, err := p.ReadFile(rel)
			if err != nil {
				continue // tool-page-missing
			}
			// Memoized by content: lexing a page allocates about eight
			// times its size, and every check visits every page.
			imports, ok := pass.Cache.Memo("module-imports", f.Text, func() any {
				if jslex.CheckLimits(string(f.Text)) != nil {
					return nil // page-syntax
				}
				return moduleImports(string(f.Text))
			}).([]moduleImport)
			if !ok {
				continue
			}
			for _, im := range imports {
				target, err := checker.ResolvePageImport(p.FS, p.Dir, rel, im.spec)
				var refused *checker.ImportRefusedError
				switch {
				case errors.As(err, &refused):
					pass.Reportf(rel, im.span, "%s", err.Error())
				case err == nil && !seen[target]:
					seen[target] = true
					queue = append(queue, target)
				}
			}
		}
	},
}

type moduleImport struct {
	spec string
	span checker.Span // the specifier string, quotes included
}

// moduleImports returns the static specifiers of a module: import and
// export … from statements, and import("literal"). Type-only imports are
// erased by the compiler and skipped.
func moduleImports(src string) []moduleImport {
	prep := jslex.Prepare(src, jslex.Options{})
	toks := prep.Toks
	var out []moduleImport
	add := func(i int) {
		if s, ok := unquoteJS(toks[i].Text(src)); ok {
			// A copy: the cache keeps the result, which must not keep
			// the page's text alive through a substring of it.
			out = append(out, moduleImport{strings.Clone(s), checker.Span{Start: int(toks[i].Start), End: int(toks[i].End)}})
		}
	}
	for _, st := range prep.Stmts {
		if st.From < 0 {
			continue
		}
		if st.Kind == jslex.Import && st.Tok+2 < len(toks) && toks[st.Tok+1].Is(src, "type") && !toks[st.Tok+2].Is(src, "from") && !toks[st.Tok+2].Is(src, ",") {
			continue
		}
		add(st.From)
	}
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].Is(src, "import") && toks[i+1].Is(src, "(") && toks[i+2].Kind == jslex.String && (i == 0 || !toks[i-1].Is(src, ".")) {
			add(i + 2)
		}
	}
	return out
}

// unquoteJS decodes a JavaScript string literal, escapes included (a
// specifier may spell "..\x2ffixtures.json").
func unquoteJS(lit string) (string, bool) {
	if len(lit) < 2 || (lit[0] != '"' && lit[0] != '\'') || lit[len(lit)-1] != lit[0] {
		return "", false
	}
	s := lit[1 : len(lit)-1]
	if !strings.Contains(s, "\\") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\n':
		case 'x', 'u':
			var hex string
			switch {
			case e == 'x' && i+2 < len(s):
				hex, i = s[i+1:i+3], i+2
			case e == 'u' && i+1 < len(s) && s[i+1] == '{':
				j := strings.IndexByte(s[i:], '}')
				if j < 0 {
					return "", false
				}
				hex, i = s[i+2:i+j], i+j
			case e == 'u' && i+4 < len(s):
				hex, i = s[i+1:i+5], i+4
			default:
				return "", false
			}
			n, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || n > utf8.MaxRune {
				return "", false
			}
			b.WriteRune(rune(n))
		default:
			b.WriteByte(e)
		}
	}
	return b.String(), true
}
