package runner

import (
	"encoding/json"
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// DefaultInput is the input of a run started without one (`plugin-lsp
// run` without --input, a code lens): the first of
// inputJsonSchema.examples, else fixtures.json "inputs"[tool], else an
// object with each required property set to an empty value of its type
// (which the input validation then reports if the schema wants more).
func DefaultInput(p *checker.Plugin, tool string) json.RawMessage {
	t := p.Manifest.FunctionTool(tool)
	if t == nil {
		return json.RawMessage("null")
	}
	sch := t.InputSchema
	if ex := sch.Get("examples"); ex != nil && len(ex.Elems) > 0 {
		return json.RawMessage(p.ManifestFile.Text[ex.Elems[0].Span.Start:ex.Elems[0].Span.End])
	}
	if p.FixturesRoot != nil {
		if in := p.FixturesRoot.Get("inputs").Get(tool); in != nil && in.Kind != 0 {
			return json.RawMessage(p.FixturesFile.Text[in.Span.Start:in.Span.End])
		}
	}
	if sch == nil || sch.Get("type") == nil {
		return json.RawMessage("{}")
	}
	if ty, _ := checker.Str(sch.Get("type")); ty != "object" {
		return json.RawMessage("null")
	}
	obj := map[string]any{}
	props := sch.Get("properties")
	for _, r := range sch.Get("required").Children() {
		name, ok := checker.Str(r)
		if !ok {
			continue
		}
		ty, _ := checker.Str(props.Get(name).Get("type"))
		switch ty {
		case "integer", "number":
			obj[name] = 0
		case "boolean":
			obj[name] = false
		case "array":
			obj[name] = []any{}
		case "object":
			obj[name] = map[string]any{}
		default:
			obj[name] = ""
		}
	}
	b, _ := json.Marshal(obj)
	return b
}

// checkInput validates the input against the tool's inputJsonSchema
// before any sandbox starts. nil: valid, or the tool has no schema.
func checkInput(p *checker.Plugin, t *checker.Tool, name string, input json.RawMessage) *record.RunError {
	sch := t.InputSchema
	if sch == nil || p.ManifestFile == nil || sch.Span.End > len(p.ManifestFile.Text) {
		return nil
	}
	text := p.ManifestFile.Text[sch.Span.Start:sch.Span.End]
	failed := func() *record.RunError {
		pos := p.ManifestFile.Position(sch.Span.Start)
		return &record.RunError{Name: "InputError", File: checker.ManifestName, Line: pos.Line + 1, Column: pos.Col + 1}
	}
	s, err := schema.CompileInput(text)
	if err != nil {
		e := failed()
		e.Message = fmt.Sprintf("tool %s: %v", name, err)
		return e
	}
	vs := s.Validate(input)
	if len(vs) == 0 {
		return nil
	}
	e := failed()
	e.Message = fmt.Sprintf("the input does not match the inputJsonSchema of tool %s: %s", name, schema.Summary(vs))
	e.Violations = vs
	return e
}
