package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
)

// FetchNotHTTPS reports a fetch URL (or a capabilities.fetch entry)
// that is not https.
var FetchNotHTTPS = &checker.Rule{
	Code:     "fetch-not-https",
	Severity: checker.Error,
	Title:    "fetch URL is not https",
	Doc: "The broker fetches `https://` URLs only and refuses any other scheme before a socket opens. " +
		"The scheme is read from the URL's literal start, wherever the literal is (the call, or the `const` " +
		"it comes from). A `capabilities.fetch` entry written as `http://host` is reported too: entries are " +
		"bare domains, always fetched over https.",
	Lang:   "ts",
	Before: "await http.fetch(\"http://api.openlibrary.org/search.json?q=x\");",
	After:  "await http.fetch(\"https://api.openlibrary.org/search.json?q=x\");",
	Fix:    "Rewrite `http://` to `https://` in the literal (in plugin.json: keep the bare domain).",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		out := newDedup(pass)
		for _, pi := range loadPages(pass) {
			for _, c := range fetchCalls(pi) {
				for _, t := range urlTargets(c.URL) {
					v := t.value
					if v.Kind == jspage.Unknown {
						continue
					}
					scheme := schemeOf(v.Value)
					if scheme == "" || scheme == "https" {
						continue
					}
					d := checker.Diagnostic{File: callFile(pi, c), Span: c.URL.Span,
						Message: fmt.Sprintf("%s uses %s://: the broker only fetches https:// URLs", urlForMessage(&jspage.URLArg{Kind: v.Kind, Value: v.Value}), scheme)}
					if scheme == "http" && v.Lit.End > 0 {
						if f, err := p.ReadFile(fileOrPage(pi, v.LitFile)); err == nil && v.Lit.End <= len(f.Text) {
							text, lit := f.Text, v.Lit
							if lit.End > lit.Start+8 && strings.EqualFold(string(text[lit.Start+1:lit.Start+5]), "http") &&
								string(text[lit.Start+5:lit.Start+8]) == "://" {
								d.Fixes = []checker.Fix{{Title: "Use https://", Edits: []checker.Edit{{
									File: fileOrPage(pi, v.LitFile), Span: checker.Span{Start: lit.Start + 1, End: lit.Start + 5}, NewText: "https",
								}}}}
							}
						}
					}
					out.report(d)
				}
			}
		}
		for _, fc := range p.Manifest.Fetch {
			dom, ok := checker.Str(fc.Domain)
			if !ok || !strings.HasPrefix(strings.ToLower(dom), "http://") {
				continue
			}
			bare := dom[len("http://"):]
			bare = strings.TrimRight(bare, "/")
			d := checker.Diagnostic{File: checker.ManifestName, Span: checker.SpanOf(fc.Domain),
				Message: fmt.Sprintf("%q: capabilities.fetch lists bare domains, and the broker fetches them over https only", dom)}
			if bare != "" && !strings.ContainsAny(bare, "/?#@") && p.SyntaxError == nil {
				if e, err := jsonedit.Replace(p.ManifestFile, fc.Domain, jsonString(bare)); err == nil {
					d.Fixes = []checker.Fix{{Title: fmt.Sprintf("Write %q", bare), Edits: []checker.Edit{e}}}
				}
			}
			pass.Report(d)
		}
	},
}

// urlForMessage quotes a URL, or its known start followed by "…".
func urlForMessage(u *jspage.URLArg) string {
	v := u.Value
	if len(v) > 80 {
		v = v[:77] + "…"
	} else if u.Kind == jspage.Prefix {
		v += "…"
	}
	return fmt.Sprintf("%q", v)
}
