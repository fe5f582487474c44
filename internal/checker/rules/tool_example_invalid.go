package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// ToolExampleInvalid reports an inputJsonSchema example that its own
// schema rejects.
var ToolExampleInvalid = &checker.Rule{
	Code:     "tool-example-invalid",
	Severity: checker.Error,
	Title:    "inputJsonSchema example does not match the schema",
	Doc: "`inputJsonSchema.examples` are real inputs: `plugin-lsp run` without `--input` and the editor's " +
		"Run lens start the tool with `examples[0]`, and every run validates its input against " +
		"`inputJsonSchema` (draft 2020-12) before the sandbox starts. An example the schema rejects would " +
		"end in an `InputError`, so each violation is reported at the offending value of the example (or " +
		"at the example when a required property is missing). A schema that does not compile is left to " +
		"`manifest-schema`.",
	Lang:   "json",
	Before: "\"inputJsonSchema\": {\n  \"type\": \"object\",\n  \"properties\": { \"city\": { \"type\": \"string\" } },\n  \"required\": [\"city\"],\n  \"examples\": [{ \"town\": \"Oslo\" }]\n}",
	After:  "\"inputJsonSchema\": {\n  \"type\": \"object\",\n  \"properties\": { \"city\": { \"type\": \"string\" } },\n  \"required\": [\"city\"],\n  \"examples\": [{ \"city\": \"Oslo\" }]\n}",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.SyntaxError != nil || p.ManifestFile == nil {
			return
		}
		text := p.ManifestFile.Text
		for _, t := range p.Manifest.Tools {
			sch := t.InputSchema
			if sch == nil || sch.Kind != jsonpos.Object {
				continue
			}
			ex := sch.Get("examples")
			if ex == nil || ex.Kind != jsonpos.Array || len(ex.Elems) == 0 {
				continue
			}
			compiled, err := schema.CompileInput(text[sch.Span.Start:sch.Span.End])
			if err != nil {
				continue
			}
			for i, e := range ex.Elems {
				for _, v := range compiled.Validate(text[e.Span.Start:e.Span.End]) {
					node := e
					if n, ok := e.Lookup(v.Pointer); ok && n != nil {
						node = n
					} else if i := strings.LastIndexByte(v.Pointer, '/'); i >= 0 {
						// a missing property: its object
						if parent, ok := e.Lookup(v.Pointer[:i]); ok && parent != nil {
							node = parent
						}
					}
					where := v.Pointer
					if where == "" {
						where = "the example"
					}
					pass.Report(checker.Diagnostic{File: checker.ManifestName, Span: checker.SpanOf(node),
						Message: fmt.Sprintf("tool %s: inputJsonSchema.examples[%d] does not match the schema: %s: %s (a run with it would fail with InputError)", toolName(t), i, where, v.Message)})
				}
			}
		}
	},
}
