package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// ToolPageMissing reports a tool whose page file does not exist.
var ToolPageMissing = &checker.Rule{
	Code:     "tool-page-missing",
	Severity: checker.Error,
	Title:    "tool page not found",
	Doc: "A function tool's `page` names the file that implements it, relative to the plugin directory: " +
		"`code/lookup-book` resolves to `code/lookup-book.ts`, then `code/lookup-book.js` (a page written " +
		"with its extension is taken as is). The page must exist inside the plugin directory, or the tool " +
		"fails at install. A page path that leaves the directory (`..`, absolute, a symlink leading out) is " +
		"reported here too, and so is a page that is there but cannot be read (a FIFO, a device, a file over " +
		"64 MiB).",
	Lang:   "json",
	Before: "\"tools\": [{ \"name\": \"lookupBook\", \"page\": \"code/lookup-bok\" }]",
	After:  "\"tools\": [{ \"name\": \"lookupBook\", \"page\": \"code/lookup-book\" }]",
	Fix: "When a page a typo away exists, use it (the preferred fix). Otherwise " +
		"create the page from a template: `<page>.ts` whose default export takes the input described by " +
		"`inputJsonSchema` and returns `{ type: \"markdown\", text: … }`.",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		for _, t := range p.Manifest.Tools {
			page, ok := checker.Str(t.Page)
			if !ok || page == "" {
				continue // manifest-schema
			}
			span := checker.SpanOf(t.Page)
			if _, err := checker.Clean(page); err != nil {
				pass.Reportf(checker.ManifestName, span, "page %q leaves the plugin directory: a page must be a relative path inside it, without '..'", page)
				continue
			}
			rel, found := p.ResolvePage(page)
			if err := unreadable(p, rel); err != nil {
				pass.Reportf(checker.ManifestName, span, "page %q cannot be read: %v", page, err)
				continue
			}
			if found {
				continue
			}
			if p.CheckInside(rel) != nil {
				pass.Reportf(checker.ManifestName, span, "page %q resolves through a symlink to a file outside the plugin directory", page)
				continue
			}
			var msg string
			if path.Ext(page) != "" {
				msg = fmt.Sprintf("page %q not found in the plugin directory", page)
			} else {
				msg = fmt.Sprintf("page %q not found: expected %s.ts or %s.js in the plugin directory", page, rel[:len(rel)-3], rel[:len(rel)-3])
			}
			d := checker.Diagnostic{File: checker.ManifestName, Span: span, Message: msg}
			if ext := path.Ext(rel); ext == ".ts" || ext == ".js" {
				name, _ := checker.Str(t.Name)
				desc, _ := checker.Str(t.Description)
				d.Fixes = []checker.Fix{{
					Title: "Create " + rel,
					Edits: []checker.Edit{{File: rel, Create: true, NewText: pageTemplate(name, desc, t.InputSchema, ext == ".ts")}},
				}}
			}
			withPathSuggestion(p, &d, t.Page, checker.PageExtensions)
			pass.Report(d)
		}
	},
}

// pageTemplate is the text of a new page for a tool.
func pageTemplate(name, desc string, input *jsonpos.Node, ts bool) string {
	fn := name
	if fn == "" || !isIdent(fn) {
		fn = "tool"
	}
	var b strings.Builder
	if desc != "" {
		fmt.Fprintf(&b, "// %s: %s\n", fn, oneLine(desc))
	} else {
		fmt.Fprintf(&b, "// %s: a function tool. It runs in a sandbox with no ambient authority:\n// reach the network with http.fetch (declare the domain in capabilities.fetch).\n", fn)
	}
	param := "input"
	if ts {
		typ := inputType(input)
		if strings.HasPrefix(typ, "{") && strings.Contains(typ, "\n") {
			fmt.Fprintf(&b, "interface Input %s\n\n", typ)
			typ = "Input"
		}
		param = "input: " + typ
	}
	fmt.Fprintf(&b, "export default async function %s(%s) {\n", fn, param)
	fmt.Fprintf(&b, "  return { type: \"markdown\", text: %s };\n", jsonString("TODO: implement "+fn+" (input: ")+" + JSON.stringify(input) + \")\"")
	b.WriteString("}\n")
	return b.String()
}

// inputType renders a TypeScript type for a tool's inputJsonSchema; it
// covers the usual flat object of scalars and says unknown otherwise.
func inputType(s *jsonpos.Node) string {
	if s == nil || s.Kind != jsonpos.Object {
		return "unknown"
	}
	t, _ := checker.Str(s.Get("type"))
	switch t {
	case "string":
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "array":
		return "unknown[]"
	case "object":
	default:
		return "unknown"
	}
	props := s.Get("properties")
	if props == nil || props.Kind != jsonpos.Object || len(props.Members) == 0 {
		return "Record<string, unknown>"
	}
	required := map[string]bool{}
	if r := s.Get("required"); r != nil && r.Kind == jsonpos.Array {
		for _, e := range r.Elems {
			if v, ok := checker.Str(e); ok {
				required[v] = true
			}
		}
	}
	var lines []string
	seen := map[string]bool{}
	for _, m := range props.Members {
		if seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		key := m.Key
		if !isIdent(key) {
			key = jsonString(key)
		}
		opt := "?"
		if required[m.Key] {
			opt = ""
		}
		typ := inputType(m)
		if typ == "Record<string, unknown>" || strings.Contains(typ, "\n") {
			typ = "Record<string, unknown>"
		}
		lines = append(lines, fmt.Sprintf("  %s%s: %s;", key, opt, typ))
	}
	return "{\n" + strings.Join(lines, "\n") + "\n}"
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
