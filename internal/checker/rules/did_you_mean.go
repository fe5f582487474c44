package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// Did-you-mean fixes for names and paths the manifest or a page looks up
// and does not find, shared by the rules that report them: each fix uses
// the existing thing instead of creating a new one.

// nearPath returns the path to write instead of written (a page or
// module path that names no file) when a file with one of exts sits in
// the same directory a typo away, and that file. A path written without
// an extension is matched, and answered, without one.
func nearPath(p *checker.Plugin, written string, exts []string) (use, file string) {
	c, err := checker.Clean(written)
	if err != nil {
		return "", ""
	}
	bare := path.Ext(c) == ""
	var cands, files []string
	for _, f := range p.Siblings(c) {
		ext := path.Ext(f)
		ok := false
		for _, e := range exts {
			ok = ok || ext == e
		}
		if !ok {
			continue
		}
		if bare {
			cands = append(cands, strings.TrimSuffix(f, ext))
		} else {
			cands = append(cands, f)
		}
		files = append(files, f)
	}
	s := suggest.Closest(c, cands)
	if s == "" || s == c {
		return "", ""
	}
	for i, cand := range cands {
		if cand == s {
			return s, files[i]
		}
	}
	return "", ""
}

// useInstead is the preferred fix replacing the manifest string n with
// the existing name or path use.
func useInstead(p *checker.Plugin, n *jsonpos.Node, use, why string) (checker.Fix, bool) {
	e, err := jsonedit.Replace(p.ManifestFile, n, jsonString(use))
	if err != nil {
		return checker.Fix{}, false
	}
	return checker.Fix{Title: fmt.Sprintf("Use %q (%s)", use, why), Edits: []checker.Edit{e}, Preferred: true}, true
}

// withPathSuggestion adds the did-you-mean of a missing page or module
// path to d: the hint in the message, and the fix first (preferred over
// creating a stub).
func withPathSuggestion(p *checker.Plugin, d *checker.Diagnostic, n *jsonpos.Node, exts []string) {
	written, _ := checker.Str(n)
	use, file := nearPath(p, written, exts)
	if use == "" {
		return
	}
	fx, ok := useInstead(p, n, use, file+" exists")
	if !ok {
		return
	}
	d.Message += fmt.Sprintf(" (did you mean %q?)", use)
	d.Subject = use
	d.Fixes = append([]checker.Fix{fx}, d.Fixes...)
}

// methodFix is the fix of a call of a host method that does not exist
// when a real one is meant: a typo of one (collections.qurey), or
// http.get, which is http.fetch for a GET. It edits the method name in
// the page.
func methodFix(f *checker.File, callee checker.Span, obj, method string) (checker.Fix, string, bool) {
	var use string
	switch {
	case obj == "http" && strings.EqualFold(method, "get"):
		use = "fetch"
	default:
		use = suggest.Closest(method, capability.MethodsOf(obj))
	}
	if use == "" || use == method || f == nil || callee.End > len(f.Text) || callee.End-len(method) < callee.Start {
		return checker.Fix{}, "", false
	}
	at := checker.Span{Start: callee.End - len(method), End: callee.End}
	if string(f.Text[at.Start:at.End]) != method {
		return checker.Fix{}, "", false // a computed or spaced member: leave it
	}
	return checker.Fix{
		Title:     fmt.Sprintf("Call %s.%s", obj, use),
		Edits:     []checker.Edit{{File: f.Path, Span: at, NewText: use}},
		Preferred: true,
	}, use, true
}
