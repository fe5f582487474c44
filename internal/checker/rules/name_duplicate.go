package rules

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// NameDuplicate reports a tool name declared more than once.
var NameDuplicate = &checker.Rule{
	Code:     "name-duplicate",
	Severity: checker.Error,
	Title:    "tool name declared twice",
	Doc: "Each tool name registers once. Among function tools (`tools[].name`, registered as `fn.<name>`) " +
		"and among native names (`nativeTools[].names`, in one module or several), a second declaration of " +
		"the same name is reported, on the second and every later one; the first stays the reference. " +
		"Across the two lanes, a native name equal to a function tool's name is reported too: the two are " +
		"different registry entries (`fn.search` and `search`), but an agent definition's `tools:` list, " +
		"the logs and the review card would show two tools under one name. (A native name `fn.<tool>` is " +
		"`name-shadows-builtin`: that prefix is reserved.)",
	Lang:   "json",
	Before: "\"tools\": [\n  { \"name\": \"lookupBook\", \"page\": \"code/lookup-book\" },\n  { \"name\": \"lookupBook\", \"page\": \"code/lookup-isbn\" }\n]",
	After:  "\"tools\": [\n  { \"name\": \"lookupBook\", \"page\": \"code/lookup-book\" },\n  { \"name\": \"lookupIsbn\", \"page\": \"code/lookup-isbn\" }\n]",
	Run: func(pass *checker.Pass) {
		m := pass.Plugin.Manifest
		first := map[string]*jsonpos.Node{} // function tool name → first declaration
		for _, t := range m.Tools {
			s, ok := checker.Str(t.Name)
			if !ok || s == "" {
				continue
			}
			if f, dup := first[s]; dup {
				dupReport(pass, t.Name, fmt.Sprintf("function tool %q is declared twice (first at %s)", s, pointerPath(f)), f)
				continue
			}
			first[s] = t.Name
		}
		firstNative := map[string]*jsonpos.Node{}
		for _, nt := range m.NativeTools {
			for _, n := range nt.Names {
				s, ok := checker.Str(n)
				if !ok || s == "" {
					continue
				}
				if f, dup := firstNative[s]; dup {
					dupReport(pass, n, fmt.Sprintf("native tool %q is declared twice (first at %s)", s, pointerPath(f)), f)
					continue
				}
				firstNative[s] = n
				if f, clash := first[s]; clash {
					dupReport(pass, n, fmt.Sprintf("native tool %q has the same name as the function tool at %s; give them distinct names", s, pointerPath(f)), f)
				}
			}
		}
	},
}

func dupReport(pass *checker.Pass, n *jsonpos.Node, msg string, first *jsonpos.Node) {
	pass.Report(checker.Diagnostic{
		File: checker.ManifestName, Span: checker.SpanOf(n), Message: msg,
		Related: []checker.Related{{File: checker.ManifestName, Span: checker.SpanOf(first), Message: "first declared here"}},
	})
}

// pointerPath shows a node's location the way people write it:
// tools[0].name.
func pointerPath(n *jsonpos.Node) string {
	return schema.DisplayPath(n.Pointer())
}
