package rules

import (
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// ManifestSyntax reports plugin.json (and fixtures.json) text that is not
// valid JSON. The rest of the checks still run on what parsed before the
// error.
var ManifestSyntax = &checker.Rule{
	Code:     "manifest-syntax",
	Severity: checker.Error,
	Title:    "plugin.json is not valid JSON",
	Doc: "The manifest must be one JSON object (no comments, no trailing commas, strings in double quotes). " +
		"Everything before the error is still checked, so other diagnostics may appear too; " +
		"fix this one first. The same goes for `fixtures.json`.",
	Lang:   "json",
	Before: "{ \"name\": \"books\", }",
	After:  "{ \"name\": \"books\" }",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if e := p.SyntaxError; e != nil {
			span, msg := explainSyntax(p.ManifestFile.Text, e)
			pass.Reportf(checker.ManifestName, span, "%s", msg)
		} else if root := p.Manifest.Root; root != nil && root.Kind != jsonpos.Object {
			pass.Reportf(checker.ManifestName, checker.SpanOf(root), "plugin.json must hold a JSON object, not %s", kindPhrase(root.Kind))
		}
		if e := p.FixturesError; e != nil && p.FixturesFile != nil {
			span, msg := explainSyntax(p.FixturesFile.Text, e)
			pass.Reportf(checker.FixturesName, span, "%s", msg)
		}
	},
}

// explainSyntax turns the decoder's error into a sentence about the
// mistakes people actually make: comments, trailing commas, single quotes,
// a string left open.
func explainSyntax(text []byte, e *jsonpos.SyntaxError) (checker.Span, string) {
	off := e.Offset
	span := checker.Span{Start: off, End: off}
	if off < 0 || off >= len(text) {
		return span, e.Message
	}
	span.End = off + 1
	if strings.Contains(e.Message, "exceeded max depth") {
		return span, "the JSON is nested too deeply (more than 10000 levels of arrays and objects)"
	}
	if off == 0 && len(text) >= 3 && text[0] == 0xef && text[1] == 0xbb && text[2] == 0xbf {
		return checker.Span{Start: 0, End: 3}, "plugin.json starts with a byte order mark (BOM): save it as UTF-8 without BOM"
	}
	switch c := text[off]; {
	case c == '/' && off+1 < len(text) && (text[off+1] == '/' || text[off+1] == '*'):
		return span, "comments are not allowed: plugin.json is plain JSON, not JSONC"
	case c == ',':
		if next := nextNonSpace(text, off+1); next < len(text) && (text[next] == '}' || text[next] == ']') {
			return span, "trailing comma before '" + string(text[next]) + "': remove it"
		}
		return span, "unexpected ',': a value is missing here"
	case c == '}' || c == ']':
		if prev := prevNonSpace(text, off-1); prev >= 0 && text[prev] == ',' {
			return checker.Span{Start: prev, End: prev + 1}, "trailing comma before '" + string(c) + "': remove it"
		}
	case c == '\'':
		return span, "strings and keys must be in double quotes, not single quotes"
	case c == '\n' || c == '\r':
		if strings.Contains(e.Message, "in string") {
			return span, "string not closed before the end of the line: add the closing '\"'"
		}
	}
	return span, e.Message
}

func nextNonSpace(t []byte, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n') {
		i++
	}
	return i
}

func prevNonSpace(t []byte, i int) int {
	for i >= 0 && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n') {
		i--
	}
	return i
}

func kindPhrase(k jsonpos.Kind) string {
	switch k {
	case jsonpos.Array, jsonpos.Object:
		return "an " + k.String()
	case jsonpos.Null:
		return "null"
	}
	return "a " + k.String()
}
