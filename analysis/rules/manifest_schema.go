package rules

import (
	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/schema"
)

// ManifestSchema checks plugin.json against analysis/schema/plugin.schema.json.
var ManifestSchema = &analysis.Rule{
	Code:     "manifest-schema",
	Severity: analysis.Error,
	Title:    "plugin.json does not follow the manifest schema",
	Doc: "The manifest is checked against `analysis/schema/plugin.schema.json` (JSON Schema draft 2020-12; " +
		"point your editor at it for completion and hover). The diagnostic sits on the offending key or value: " +
		"an unknown key (usually a typo: a close match is suggested), a value of the wrong type, a name or version " +
		"in the wrong shape, a required key that is missing, or a key written twice.\n\n" +
		"Some checks are left to dedicated rules so that one mistake gives one diagnostic: the ranges of fetch " +
		"limits (`fetch-limit-range`), `sdk` being required with native tools (`native-sdk-missing`), the header " +
		"and template of a credential (`credential-format`). A tool's `inputJsonSchema` is checked in outline " +
		"(`type`, `properties`, `required`), not against the full JSON Schema meta-schema, which would cost more " +
		"than the whole check of a large manifest.",
	Lang:   "json",
	Before: "{\n  \"name\": \"books\",\n  \"version\": \"1.2\",\n  \"tool\": [{ \"name\": \"lookupBook\", \"page\": \"code/lookup-book\" }]\n}",
	After:  "{\n  \"name\": \"books\",\n  \"version\": \"1.2.0\",\n  \"tools\": [{ \"name\": \"lookupBook\", \"page\": \"code/lookup-book\" }]\n}",
	Run: func(pass *analysis.Pass) {
		p := pass.Plugin
		if p.Manifest.Root == nil {
			return
		}
		text := p.ManifestFile.Text
		problems := pass.Cache.Memo("manifest-schema", text, func() any {
			v, err := schemaValidator(pass.Cache)
			if err != nil {
				return err
			}
			return v.Validate(p.Manifest.Root)
		})
		switch ps := problems.(type) {
		case error:
			pass.Reportf(analysis.ManifestName, analysis.Span{}, "the manifest schema does not compile (please report this): %v", ps)
		case []schema.Problem:
			for _, pr := range ps {
				pass.Reportf(analysis.ManifestName, analysis.Span(pr.Span), "%s", pr.Message)
			}
		}
	},
}

// schemaValidator compiles the embedded schema once per cache (the
// compiled schema depends on nothing but the schema text).
func schemaValidator(c *analysis.Cache) (*schema.Validator, error) {
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
