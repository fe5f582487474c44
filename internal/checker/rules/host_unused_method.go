package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// HostUnusedMethod reports a capabilities.host method no page can call.
var HostUnusedMethod = &checker.Rule{
	Code:     "host-unused-method",
	Severity: checker.Warning,
	Title:    "capabilities.host method that no page calls",
	Doc: "Every method in `capabilities.host` is authority the sandbox gives the plugin's tools, and the install " +
		"review shows it. A method that no page calls, read from the code (each page with the files it imports) " +
		"and seen when the tools run (exploration), is authority nobody needs: remove it.\n\n" +
		"The rule is silent when a page does not parse, when a tool's page is missing, and for an object a page " +
		"uses in a way the checker cannot name (`collections[op](…)`): any of its methods may be called.",
	Lang:   "json",
	Before: "\"host\": [\"http.fetch\", \"collections.put\"] // no page calls collections.put",
	After:  "\"host\": [\"http.fetch\"]",
	Fix:    "Remove the entry from `capabilities.host` (a removal: `check --fix` never applies it).",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.SyntaxError != nil || len(p.Manifest.Host) == 0 {
			return
		}
		if n := p.Manifest.HostNode; n != nil && n.Kind != jsonpos.Array {
			return
		}
		if tn := p.Manifest.ToolsNode; tn != nil && tn.Kind != jsonpos.Array {
			return
		}
		pages := loadPages(pass)
		bound := 0
		for _, pi := range pages {
			bound += len(pi.Tools)
		}
		functionTools := 0
		for _, t := range p.Manifest.Tools {
			page, ok := checker.Str(t.Page)
			if !ok || page == "" {
				return
			}
			functionTools++
		}
		if bound != functionTools {
			return // a page is missing: it may be the one that calls it
		}
		used := map[string]bool{}
		opaque := map[string]bool{} // objects used in a way not named
		for _, pi := range pages {
			if hasPageErrors(pi) {
				return
			}
			for _, c := range pi.Page.Calls {
				if capability.IsHostMethod(c.Object, c.Method) {
					used[c.Object+"."+c.Method] = true
				} else if c.Object != "" {
					opaque[c.Object] = true
				}
			}
		}
		for _, e := range pass.Config.Explored {
			for _, m := range e.Methods {
				used[m] = true
			}
		}
		for _, n := range p.Manifest.Host {
			name, ok := checker.Str(n)
			if !ok || used[name] {
				continue
			}
			obj, _, _ := cutDot(name)
			if opaque[obj] || !isHostMethodName(name) {
				continue // host-unknown-method's business, or not knowable
			}
			d := checker.Diagnostic{
				File: checker.ManifestName, Span: checker.SpanOf(n),
				Message: fmt.Sprintf("no page calls %s: remove it from capabilities.host, it only widens what the plugin's tools may do", name),
				Tags:    []checker.Tag{checker.Unnecessary},
				Subject: name,
			}
			if ed, err := jsonedit.RemoveElement(p.ManifestFile, n); err == nil {
				d.Fixes = []checker.Fix{{Title: fmt.Sprintf("Remove %q from capabilities.host", name), Edits: []checker.Edit{ed}, Removes: true}}
			}
			pass.Report(d)
		}
	},
}

func cutDot(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func isHostMethodName(name string) bool {
	obj, m, ok := cutDot(name)
	return ok && capability.IsHostMethod(obj, m)
}
