package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// ManifestSchema checks plugin.json against internal/checker/schema/plugin.schema.json.
var ManifestSchema = &checker.Rule{
	Code:     "manifest-schema",
	Severity: checker.Error,
	Title:    "plugin.json or fixtures.json does not follow its schema",
	Doc: "The manifest is checked against `internal/checker/schema/plugin.schema.json` (JSON Schema draft 2020-12; " +
		"point your editor at it for completion and hover). The diagnostic sits on the offending key or value: " +
		"an unknown key (usually a typo: a close match is suggested), a value of the wrong type, a name or version " +
		"in the wrong shape, or a required key that is missing (a key written twice is `json-duplicate-key`). A fetch or credential domain " +
		"must be a bare host (`api.example.com`, with `:port` when not 443): a URL, a path, a trailing dot or a " +
		"non-ASCII host is reported here, with a fix to the bare host when one can be read off.\n\n" +
		"Some checks are left to dedicated rules so that one mistake gives one diagnostic: the ranges of fetch " +
		"limits (`fetch-limit-range`), `sdk` being required with native tools (`native-sdk-missing`), the header " +
		"and template of a credential (`credential-format`). A tool's `inputJsonSchema` is checked in outline " +
		"(`type`, `properties`, `required`), not against the full JSON Schema meta-schema, which would cost more " +
		"than the whole check of a large manifest.\n\n" +
		"`fixtures.json` is checked the same way against `internal/checker/fixtures/fixtures.schema.json` (documented in " +
		"`docs/fixtures.md`): `\"status\": \"500\"` or a misspelt `\"stauts\"` is reported here, where `run` would " +
		"refuse the file.",
	Lang:   "json",
	Before: "{\n  \"name\": \"books\",\n  \"version\": \"1.2\",\n  \"tool\": [{ \"name\": \"lookupBook\", \"page\": \"code/lookup-book\" }]\n}",
	After:  "{\n  \"name\": \"books\",\n  \"version\": \"1.2.0\",\n  \"tools\": [{ \"name\": \"lookupBook\", \"page\": \"code/lookup-book\" }]\n}",
	Fix: "A misspelt key of plugin.json or fixtures.json is renamed to the key it misspells, its value kept; " +
		"a domain written as a URL becomes the bare host.",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		// Asked on every check, so that a cache swept after each check
		// (the language server's) keeps the compiled schema.
		v, err := schemaValidator(pass.Cache)
		if p.Manifest.Root == nil {
			return
		}
		text := p.ManifestFile.Text
		problems := pass.Cache.Memo("manifest-schema", text, func() any {
			if err != nil {
				return err
			}
			return v.Validate(p.Manifest.Root)
		})
		var done []checker.Span
		switch ps := problems.(type) {
		case error:
			pass.Reportf(checker.ManifestName, checker.Span{}, "the manifest schema does not compile (please report this): %v", ps)
		case []schema.Problem:
			for _, pr := range ps {
				pass.Report(schemaDiagnostic(checker.ManifestName, pr))
				done = append(done, pr.Span)
			}
		}
		done = append(done, checkDomains(pass)...)
		checkFixturesSchema(pass)
		// What the capability model refuses to grant and neither the
		// schema nor the domain check said (an unknown key is the schema's).
		reportReach(pass, "manifest-schema", done...)
	},
}

// checkFixturesSchema checks fixtures.json against its schema
// (internal/checker/fixtures/fixtures.schema.json): what `run` would refuse is
// reported by `check`, on the offending key or value.
func checkFixturesSchema(pass *checker.Pass) {
	p := pass.Plugin
	if p.FixturesFile == nil || p.FixturesRoot == nil {
		return
	}
	for _, pr := range fixturesProblems(pass) {
		pass.Report(schemaDiagnostic(checker.FixturesName, pr))
	}
}

// schemaDiagnostic is a schema problem of plugin.json or fixtures.json as
// a diagnostic: a misspelt key ("stauts" for "status") gets the fix that
// renames it, its value kept (the schema suggests only a key the object
// does not already have).
func schemaDiagnostic(file string, pr schema.Problem) checker.Diagnostic {
	d := checker.Diagnostic{File: file, Span: pr.Span, Message: pr.Message}
	if pr.Suggestion != "" {
		d.Subject = pr.Suggestion
		d.Fixes = []checker.Fix{{Title: fmt.Sprintf("Rename %q to %q", pr.Key, pr.Suggestion),
			Edits: []checker.Edit{{File: file, Span: d.Span, NewText: jsonString(pr.Suggestion)}}}}
	}
	return d
}

// checkDomains reports capabilities.fetch and credential domains that are
// not bare host names (the broker would never match them), with a fix when
// the host can be read off ("https://api.x.org/v1" → "api.x.org"). An
// http:// fetch entry is left to fetch-not-https. It returns the spans it
// reported.
func checkDomains(pass *checker.Pass) []checker.Span {
	m := pass.Plugin.Manifest
	var done []checker.Span
	var nodes []*jsonpos.Node
	for _, f := range m.Fetch {
		if d, ok := checker.Str(f.Domain); ok && strings.HasPrefix(strings.ToLower(d), "http://") {
			continue // fetch-not-https
		}
		nodes = append(nodes, f.Domain)
	}
	for _, c := range m.Credentials {
		nodes = append(nodes, c.Domains...)
	}
	for _, n := range nodes {
		d, ok := checker.Str(n)
		if !ok || d == "" {
			continue // the schema
		}
		_, r := fetchurl.NormalizeDomain(d)
		if r == nil {
			continue
		}
		diag := checker.Diagnostic{
			File: checker.ManifestName, Span: checker.SpanOf(n),
			Message: fmt.Sprintf("%q: %s (the broker compares hosts exactly, so it would never match)", schema.DisplayPath(n.Pointer()), strings.TrimSuffix(r.Message, ".")),
		}
		if host := bareHost(d); host != "" && host != d {
			if e, err := jsonedit.Replace(pass.Plugin.ManifestFile, n, jsonString(host)); err == nil {
				diag.Fixes = []checker.Fix{{Title: "Use the bare domain " + strconv.Quote(host), Edits: []checker.Edit{e}}}
				diag.Subject = host
			}
		}
		pass.Report(diag)
		done = append(done, diag.Span)
	}
	return done
}

// bareHost reads the host out of a URL-ish domain entry, or returns "".
func bareHost(d string) string {
	s := d
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSuffix(strings.ToLower(s), ".")
	if _, r := fetchurl.NormalizeDomain(s); r != nil {
		return ""
	}
	return s
}

// fixturesProblems validates fixtures.json once per content (also used by
// fixture-unused, which stays silent on a fixture the schema reports).
func fixturesProblems(pass *checker.Pass) []schema.Problem {
	p := pass.Plugin
	if p.FixturesFile == nil || p.FixturesRoot == nil {
		return nil
	}
	return pass.Cache.Memo("fixtures-schema", p.FixturesFile.Text, func() any {
		return fixtures.Validate(p.FixturesRoot)
	}).([]schema.Problem)
}

// schemaValidator compiles the embedded schema once per cache (the
// compiled schema depends on nothing but the schema text).
func schemaValidator(c *checker.Cache) (*schema.Validator, error) {
	v := c.Memo("manifest-schema/compiled", schema.JSON, func() any {
		v, err := schema.New()
		if err != nil {
			return err
		}
		return v
	})
	if err, ok := v.(error); ok {
		return nil, err
	}
	return v.(*schema.Validator), nil
}
