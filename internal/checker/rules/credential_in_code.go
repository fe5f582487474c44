package rules

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// CredentialInCode warns about a page that sets a brokered credential's
// header itself, or holds a secret in a literal.
var CredentialInCode = &checker.Rule{
	Code:     "credential-in-code",
	Severity: checker.Warning,
	Title:    "credential handled in the page",
	Doc: "Credentials are brokered host-side: the broker resolves the secret and sets the header named in " +
		"`capabilities.credentials[].into` on the outgoing request, so the token never enters the sandbox. " +
		"A page that sets that header itself does nothing useful (the broker overwrites it) and suggests the " +
		"secret is in the code. A string literal shaped like a secret (`Bearer …`, `ghp_…`, `sk-…`, `xoxb-…`, " +
		"`AKIA…`, `AIza…`, a JWT, a private key) or equal to a dev secret from `fixtures.json` is visible to " +
		"everyone who reads the plugin: move it to a credential.",
	Lang:   "ts",
	Before: "await http.fetch(url, { headers: { Authorization: \"Bearer ghp_…\" } });",
	Fix:    "Remove the header's property from the object literal (a header set by assignment or `.set()` is left to the author).",
	After:  "// capabilities.credentials: [{ \"name\": \"gh_token\", \"into\": { \"header\": \"Authorization\", \"format\": \"Bearer {{secret}}\" } }]\nawait http.fetch(url);",
	Run: func(pass *checker.Pass) {
		out := newDedup(pass)
		p := pass.Plugin
		byHeader := map[string]string{}
		for _, c := range p.Manifest.Credentials {
			h, ok := checker.Str(c.Header)
			if !ok || h == "" {
				continue
			}
			name, _ := checker.Str(c.Name)
			byHeader[strings.ToLower(h)] = name
		}
		secrets := fixtureSecrets(p)
		for _, pi := range loadPages(pass) {
			for _, h := range pi.Page.Headers {
				cred, ok := byHeader[strings.ToLower(h.Name)]
				if !ok {
					continue
				}
				d := checker.Diagnostic{File: fileOrPage(pi, h.File), Span: h.Span,
					Message: fmt.Sprintf("the page sets the %s header, which the broker fills from credential %q (and overwrites): remove it from the code", h.Name, cred)}
				if h.Remove.End > 0 {
					d.Fixes = []checker.Fix{{Title: "Remove the " + h.Name + " header (the broker sets it)",
						Edits: []checker.Edit{{File: fileOrPage(pi, h.File), Span: h.Remove}}}}
				}
				out.report(d)
			}
			for _, t := range pi.Page.Tokens {
				out.report(checker.Diagnostic{File: fileOrPage(pi, t.File), Span: t.Span,
					Message: fmt.Sprintf("this string looks like %s: a secret in a page is visible to everyone who reads the plugin; declare it in capabilities.credentials and let the broker inject it", t.Kind)})
			}
			for _, s := range secrets {
				if i := bytes.Index(pi.File.Text, []byte(s.value)); i >= 0 {
					out.report(checker.Diagnostic{File: pi.Rel, Span: checker.Span{Start: i, End: i + len(s.value)},
						Message: fmt.Sprintf("the page holds the value of secret %q from fixtures.json: secrets reach requests through the broker, never through code", s.name)})
				}
			}
		}
	},
}

type namedSecret struct{ name, value string }

// fixtureSecrets returns fixtures.json "secrets" values long enough not
// to match by accident.
func fixtureSecrets(p *checker.Plugin) []namedSecret {
	var out []namedSecret
	s := p.FixturesRoot.Get("secrets")
	if s == nil || s.Kind != jsonpos.Object {
		return nil
	}
	for _, m := range s.Members {
		if v, ok := checker.Str(m); ok && len(v) >= 8 {
			out = append(out, namedSecret{m.Key, v})
		}
	}
	return out
}
