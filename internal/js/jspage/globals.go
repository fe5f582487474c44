package jspage

import (
	"github.com/dop251/goja/ast"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// AbsentGlobals are globals authors reach for that the sandbox does not
// have, each with what to use instead. The sandbox has the ECMAScript
// built-ins, console, timers and the web globals of docs/host-api.md; a
// test in internal/runner/sandbox checks every name here is really undefined there.
var AbsentGlobals = map[string]string{
	"fetch":          "use http.fetch(url, init), the brokered fetch (declare \"http.fetch\" in capabilities.host)",
	"XMLHttpRequest": "use http.fetch(url, init), the brokered fetch",
	"WebSocket":      "the sandbox has no sockets; use http.fetch(url, init)",
	"EventSource":    "the sandbox has no streaming connections; use http.fetch(url, init)",
	"require":        "pages are ES modules: import relative files (import { x } from \"./lib\"); packages are not bundled",
	"module":         "pages are ES modules: write export default",
	"exports":        "pages are ES modules: write export default",
	"__dirname":      "the sandbox has no file system",
	"__filename":     "the sandbox has no file system",
	"process":        "the sandbox has no process or environment: take settings from the tool's input, secrets from capabilities.credentials (injected by the broker)",
	"Buffer":         "use Uint8Array with TextEncoder/TextDecoder, or atob/btoa for base64",
	"global":         "use globalThis",
	"setImmediate":   "use queueMicrotask(fn) or setTimeout(fn, 0)",
	"clearImmediate": "use clearTimeout",
	"window":         "the sandbox has no browser window; use globalThis",
	"self":           "the sandbox has no browser window; use globalThis",
	"document":       "the sandbox has no DOM",
	"localStorage":   "nothing persists in the sandbox; use collections.get/put",
	"sessionStorage": "nothing persists in the sandbox; use collections.get/put",
	"indexedDB":      "nothing persists in the sandbox; use collections.get/put",
	"navigator":      "the sandbox has no navigator",
	"location":       "the sandbox has no location; build URLs with new URL(path, base)",
	"alert":          "the sandbox has no UI; return the text, or log it with console.log",
	"Deno":           "pages run in the plugin sandbox, not Deno",
	"Bun":            "pages run in the plugin sandbox, not Bun",
	"WebAssembly":    "WebAssembly is not available in the sandbox",
	"Intl":           "Intl is not available in the sandbox; format with toFixed, padStart or a small helper",
	"Worker":         "the sandbox has no workers",
	"FormData":       "build the body yourself: new URLSearchParams(obj).toString() or JSON.stringify(obj)",
	"Blob":           "send a string body (JSON.stringify) or bytes as base64 (btoa)",
}

// esbuildRequire is the name esbuild's bundle gives require() of a module
// it leaves external ("querystring"): the page wrote require.
const esbuildRequire = "__require"

// GlobalRef is a use of a name in AbsentGlobals that no declaration in
// the page binds.
type GlobalRef struct {
	Name string
	File string // the file the use is in: the page, or a file it imports
	Span Span
}

// importedNames returns every identifier of the page's import statements
// (they are blanked before goja reads the page, so the scope model does
// not see them): a page importing "fetch" from a file is not using the
// global.
func importedNames(js string) map[string]bool {
	out := map[string]bool{}
	mp := jslex.Prepare(js, jslex.Options{})
	for _, st := range mp.Stmts {
		if st.Kind != jslex.Import {
			continue
		}
		for i := st.Tok; i < st.TokEnd && i < len(mp.Toks); i++ {
			if t := mp.Toks[i]; t.Kind == jslex.Ident {
				out[t.Text(js)] = true
			}
		}
	}
	return out
}

// globalRef records id when it names an absent global no scope binds.
func (a *analyzer) globalRef(id *ast.Identifier, sc *jsfront.Scope) {
	name := id.Name.String()
	if name == esbuildRequire {
		name = "require" // esbuild's shim for require() of a file it does not bundle
	} else if _, absent := AbsentGlobals[name]; !absent || sc.Lookup(name) != nil {
		return
	}
	if a.imported == nil {
		a.imported = importedNames(a.js)
	}
	if a.imported[name] {
		return
	}
	start := a.start(id)
	if start < 0 || start+len(name) > len(a.ts) || a.ts[start:start+len(name)] != name {
		return // not where the page wrote it (esbuild renamed or moved it)
	}
	for _, g := range a.page.Globals {
		if g.Span.Start == start {
			return
		}
	}
	a.page.Globals = append(a.page.Globals, GlobalRef{Name: name, Span: Span{Start: start, End: start + len(name)}})
}

// calleeGlobal records the callee of a call or new when it is an absent
// global: fetch(…), new WebSocket(…), globalThis.fetch(…). (The front end
// does not read a callee identifier as a value.)
func (a *analyzer) calleeGlobal(callee ast.Expression, sc *jsfront.Scope) {
	switch c := jsfront.Unwrap(callee).(type) {
	case *ast.Identifier:
		a.globalRef(c, sc)
	case *ast.DotExpression:
		if g, ok := c.Left.(*ast.Identifier); ok && g.Name.String() == objGlobal && sc.Lookup(objGlobal) == nil {
			a.globalRef(&c.Identifier, sc)
		}
	}
}
