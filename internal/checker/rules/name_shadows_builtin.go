package rules

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// NameShadowsBuiltin reports tool names that a first-party built-in (or the
// fn. namespace) already owns.
var NameShadowsBuiltin = &checker.Rule{
	Code:     "name-shadows-builtin",
	Severity: checker.Error,
	Title:    "tool name is taken by a built-in tool",
	Doc: "Plugin tools compose under the first-party built-ins: when a plugin declares a name a built-in " +
		"already has, the built-in wins and the plugin's tool can never be called. The built-in names come " +
		"from an embedded catalogue (`web.search`, `files.read`, `shell.exec`, …; see `internal/checker/builtins.json`), " +
		"which a workspace can extend (`plugin-lsp check --builtins FILE`, or the editor setting).\n\n" +
		"The prefix `fn.` is reserved for function tools, which register as `fn.<name>`: a native name " +
		"starting with `fn.` is refused, and a function tool whose `fn.<name>` is in the catalogue is " +
		"shadowed like any other.",
	Lang:   "json",
	Before: "\"nativeTools\": [{ \"module\": \"native/search.js\", \"names\": [\"web.search\"] }]",
	After:  "\"nativeTools\": [{ \"module\": \"native/search.js\", \"names\": [\"books.search\"] }]",
	Fix: "Rename to a free name: `<plugin>.<last part>` for a native name (the key in the module's `tools` " +
		"map is renamed with it), `<name>2` for a function tool (the `\"tool\"` of its test cases in " +
		"`tests/*.json` is renamed with it; snapshots are stored by file and case name, so they stay).",
	Run: func(pass *checker.Pass) {
		m := pass.Plugin.Manifest
		cat := pass.Config.Builtins
		if cat == nil {
			cat = checker.DefaultCatalogue()
		}
		taken := map[string]bool{}
		for _, t := range m.Tools {
			if s, ok := checker.Str(t.Name); ok {
				taken[checker.ReservedPrefix+s] = true
			}
		}
		for _, nt := range m.NativeTools {
			for _, n := range nt.Names {
				if s, ok := checker.Str(n); ok {
					taken[s] = true
				}
			}
		}
		free := func(name string) bool {
			return !taken[name] && !cat.Has(name) && !strings.HasPrefix(name, checker.ReservedPrefix)
		}
		// The suggested prefix is the plugin's name when it can start a
		// tool name (and is not the reserved "fn").
		plugin, _ := checker.Str(m.Name)
		if !namePart.MatchString(plugin) || plugin+"." == checker.ReservedPrefix {
			plugin = "plugin"
		}
		for _, t := range m.Tools {
			s, ok := checker.Str(t.Name)
			if !ok || s == "" || !cat.Has(checker.ReservedPrefix+s) {
				continue
			}
			var suggestion string
			for i := 2; ; i++ {
				c := s + strconv.Itoa(i)
				if !taken[checker.ReservedPrefix+c] && !cat.Has(checker.ReservedPrefix+c) {
					suggestion = c
					break
				}
			}
			report(pass, t.Name, fmt.Sprintf("function tool %q registers as %q, which is a built-in tool: built-ins win, so this tool can never be called", s, checker.ReservedPrefix+s), suggestion, testRenames(pass.Plugin, s, suggestion)...)
		}
		for _, nt := range m.NativeTools {
			for _, n := range nt.Names {
				s, ok := checker.Str(n)
				if !ok || s == "" {
					continue
				}
				var msg string
				switch {
				case strings.HasPrefix(s, checker.ReservedPrefix):
					msg = fmt.Sprintf("native tool %q uses the prefix %q, reserved for function tools: it can never be called", s, checker.ReservedPrefix)
				case cat.Has(s):
					msg = fmt.Sprintf("native tool %q has the name of a built-in tool: built-ins win, so it can never be called", s)
				default:
					continue
				}
				last := s[strings.LastIndexByte(s, '.')+1:]
				if !namePart.MatchString(last) {
					last = "tool"
				}
				suggestion := plugin + "." + last
				for i := 2; !free(suggestion); i++ {
					suggestion = plugin + "." + last + strconv.Itoa(i)
				}
				report(pass, n, msg, suggestion, exportRename(pass, nt, s, suggestion)...)
			}
		}
	},
}

// exportRename is the edit that renames a native tool's key in its
// module's tools map (in whichever plugin file the entry is written), so
// that a rename in plugin.json does not leave the name unexported. It
// returns nothing when the key is not one string the checker can rewrite
// (computed, missing, written twice, or the new name is taken there).
func exportRename(pass *checker.Pass, nt *checker.NativeTool, from, to string) []checker.Edit {
	mod, _ := checker.Str(nt.Module)
	for _, m := range nativeModules(pass) {
		if m.Rel != mod && m.ModuleNode != nt.Module {
			continue
		}
		if !m.readable() {
			return nil
		}
		tm := m.toolMap(pass)
		if tm == nil || len(tm.Unknowable) > 0 {
			return nil
		}
		var hit *effTool
		for i := range tm.Entries {
			e := &tm.Entries[i]
			switch e.Name {
			case to:
				return nil
			case from:
				if hit != nil || e.Computed && !quotedKey(pass, e) {
					return nil
				}
				hit = e
			}
		}
		if hit == nil {
			return nil
		}
		return []checker.Edit{{File: hit.File, Span: hit.KeySpan, NewText: jsonString(to)}}
	}
	return nil
}

// quotedKey reports whether a computed key is a string literal (["a.b"]),
// which a string literal may replace.
func quotedKey(pass *checker.Pass, e *effTool) bool {
	f, err := pass.Plugin.ReadFile(e.File)
	if err != nil || e.KeySpan.End > len(f.Text) || e.KeySpan.End-e.KeySpan.Start < 2 {
		return false
	}
	c := f.Text[e.KeySpan.Start]
	return (c == '"' || c == '\'') && f.Text[e.KeySpan.End-1] == c
}

// namePart is one dot-separated part of a tool name (the schema's rule).
var namePart = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// report reports a shadowed name with the fix renaming it in plugin.json
// and, for a native name, in its module (more edits, in other files).
func report(pass *checker.Pass, n *jsonpos.Node, msg, suggestion string, more ...checker.Edit) {
	d := checker.Diagnostic{File: checker.ManifestName, Span: checker.SpanOf(n), Message: msg}
	if suggestion != "" {
		if e, err := jsonedit.Replace(pass.Plugin.ManifestFile, n, jsonString(suggestion)); err == nil {
			title := "Rename to " + strconv.Quote(suggestion)
			title += editedFiles(more)
			d.Fixes = []checker.Fix{{Title: title, Edits: append([]checker.Edit{e}, more...)}}
		}
	}
	pass.Report(d)
}

// testRenames are the edits that rename a function tool's test cases
// along with the tool: every "tool" naming it in the test files
// (tests/*.json, at the top of a file and in a case). Snapshots are
// stored by test file and case name, so a rename leaves them valid. A
// test file that is not well-formed JSON is left alone.
func testRenames(p *checker.Plugin, from, to string) []checker.Edit {
	var out []checker.Edit
	for _, rel := range p.Siblings(testsDir + "/x.json") {
		if path.Ext(rel) != ".json" {
			continue
		}
		f, err := p.ReadFile(rel)
		if err != nil {
			continue
		}
		root, serr := jsonpos.Parse(f.Text)
		if serr != nil || root.Kind != jsonpos.Object {
			continue
		}
		names := []*jsonpos.Node{root.Get("tool")}
		if cases := root.Get("cases"); cases != nil && cases.Kind == jsonpos.Array {
			for _, c := range cases.Children() {
				if c.Kind == jsonpos.Object {
					names = append(names, c.Get("tool"))
				}
			}
		}
		for _, n := range names {
			if s, ok := checker.Str(n); ok && s == from {
				if e, err := jsonedit.Replace(f, n, jsonString(to)); err == nil {
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// testsDir holds a plugin's tool tests (docs/testing.md).
const testsDir = "tests"

// editedFiles names, for a fix title, the files edited besides
// plugin.json: " in plugin.json and native/a.js", " in plugin.json and 2
// test files".
func editedFiles(more []checker.Edit) string {
	var files []string
	seen := map[string]bool{}
	for _, e := range more {
		if !seen[e.File] {
			seen[e.File] = true
			files = append(files, e.File)
		}
	}
	switch {
	case len(files) == 0:
		return ""
	case len(files) == 1:
		return " in plugin.json and " + files[0]
	default:
		return fmt.Sprintf(" in plugin.json and %d other files (%s)", len(files), strings.Join(files, ", "))
	}
}
