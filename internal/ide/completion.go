package ide

import (
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// Kind is what a completion candidate is.
type Kind int

const (
	HostMethod Kind = iota + 1
	Domain
	PagePath
	ModulePath
	NativeName
)

// Candidate is one completion: the label to insert, what it is, and its
// documentation (nil for none). Replace is the content of the
// string being typed (quotes kept), replaced by Label; when it is nil the
// cursor is between array elements and Label goes in as a new JSON string.
type Candidate struct {
	Label   string
	Kind    Kind
	Detail  string
	Doc     Doc
	Replace *checker.Span
}

// Complete lists the completions at byte off of file rel. Only plugin.json
// has any: host methods in capabilities.host, domains seen in the pages
// (and in runs) in capabilities.fetch and credential domains, page paths
// in tools[].page, module paths in nativeTools[].module, exported names in
// nativeTools[].names. It runs in three phases: where the cursor is
// (locate), what may go there (labels), and the candidates (with the span
// they replace).
func (vw *View) Complete(rel string, off int) []Candidate {
	if vw.Plugin == nil || rel != checker.ManifestName {
		return nil
	}
	at := vw.locate(off)
	if at == nil {
		return nil
	}
	labels, kind, detail, ok := vw.labels(at)
	if !ok {
		return nil
	}
	return candidates(labels, kind, detail, at.replace())
}

// completionSite is where in plugin.json a completion was asked for.
type completionSite struct {
	file *checker.File
	// str is the string being typed (replaced by the completion), nil at
	// an insertion point between array elements; arr is the array (or
	// object) it is in.
	str, arr *jsonpos.Node
	where    []string          // the JSON path of arr (of str in an object)
	whole    *checker.Manifest // the manifest as the completion will make it
}

// locate finds the value at off that a completion fills; nil on a key,
// outside any value, or when plugin.json cannot be read.
func (vw *View) locate(off int) *completionSite {
	p := vw.Plugin
	f, err := p.ReadFile(checker.ManifestName)
	if err != nil {
		return nil
	}
	n := nodeAt(p.Manifest.Root, off)
	if n == nil || onKey(n, off) {
		return nil
	}
	at := &completionSite{file: f, arr: n}
	if n.Kind == jsonpos.String {
		at.str, at.arr = n, n.Parent
	}
	if at.arr == nil {
		return nil
	}
	at.where = pathOfNode(at.arr)
	if at.str != nil && at.arr.Kind == jsonpos.Object {
		at.where = pathOfNode(at.str)
	}
	at.whole = completionManifest(p.Manifest, f.Text, off)
	return at
}

// labels are what may go at the site, by the path it is at; ok false
// where nothing completes.
func (vw *View) labels(at *completionSite) (labels []string, kind Kind, detail string, ok bool) {
	where := at.where
	switch {
	case matchPath(where, "capabilities", "host") && len(where) == 2:
		return hostLabels(at), HostMethod, "host method", true
	case matchPath(where, "capabilities", "fetch") && len(where) == 2,
		matchPath(where, "capabilities", "fetch", "[]", "domain") && len(where) == 4,
		matchPath(where, "capabilities", "credentials", "[]", "domains") && len(where) == 4:
		return vw.domainLabels(at), Domain, "domain", true
	case matchPath(where, "tools", "[]", "page") && len(where) == 3:
		return listFiles(vw.Plugin, func(rel string) (string, bool) {
			ext := path.Ext(rel)
			if ext != ".ts" && ext != ".js" || strings.HasPrefix(rel, "native/") {
				return "", false
			}
			return strings.TrimSuffix(rel, ext), true
		}), PagePath, "page", true
	case matchPath(where, "nativeTools", "[]", "module") && len(where) == 3:
		return listFiles(vw.Plugin, func(rel string) (string, bool) {
			ext := path.Ext(rel)
			return rel, ext == ".js" || ext == ".mjs"
		}), ModulePath, "native module", true
	case matchPath(where, "nativeTools", "[]", "names") && len(where) == 3:
		return vw.nativeNameLabels(at), NativeName, "exported native tool", true
	}
	return nil, 0, "", false
}

// hostLabels: the catalogue's host methods not granted yet (the one being
// typed kept).
func hostLabels(at *completionSite) []string {
	var out []string
	have := setOf(capability.FromManifest(at.whole).Host)
	for _, m := range capability.HostMethodNames() {
		if !have[m] || at.str != nil && at.str.Str == m {
			out = append(out, m)
		}
	}
	return out
}

// domainLabels: in capabilities.fetch, the domains the pages and the last
// runs reach that are not declared yet; in a credential's domains, the
// declared ones.
func (vw *View) domainLabels(at *completionSite) []string {
	reach := capability.FromManifest(at.whole)
	if at.where[1] != "fetch" {
		return reach.Domains()
	}
	var out []string
	have := setOf(reach.Domains())
	for _, d := range seenDomains(vw.Plugin, vw.Runs) {
		if !have[d] {
			out = append(out, d)
		}
	}
	return out
}

// nativeNameLabels: the names the entry's module exports that the entry
// does not list yet (the one being typed kept).
func (vw *View) nativeNameLabels(at *completionSite) []string {
	var out []string
	p := vw.Plugin
	ntNode := at.arr.Parent
	for _, nt := range p.Manifest.NativeTools {
		if nt.Node != ntNode {
			continue
		}
		mod, _ := checker.Str(nt.Module)
		m, _ := moduleInfo(p, mod)
		if m == nil || m.Tools == nil {
			continue
		}
		have := map[string]bool{}
		for _, x := range nt.Names {
			if s, ok := checker.Str(x); ok {
				have[s] = true
			}
		}
		for _, e := range m.Tools.Entries {
			if !have[e.Name] || at.str != nil && at.str.Str == e.Name {
				out = append(out, e.Name)
			}
		}
	}
	return out
}

// replace is the content of the string being typed (quotes kept), which
// a candidate replaces; nil between array elements.
func (at *completionSite) replace() *checker.Span {
	str := at.str
	if str == nil {
		return nil
	}
	sp := checker.Span{Start: str.Span.Start + 1, End: str.Span.End - 1}
	if str.Span.End-str.Span.Start < 2 || at.file.Text[str.Span.End-1] != '"' {
		sp.End = str.Span.End
	}
	if sp.End < sp.Start {
		sp.End = sp.Start
	}
	return &sp
}

// candidates are the labels as completions, a host method with its
// documentation.
func candidates(labels []string, kind Kind, detail string, replace *checker.Span) []Candidate {
	out := make([]Candidate, 0, len(labels))
	for _, l := range labels {
		c := Candidate{Label: l, Kind: kind, Detail: detail, Replace: replace}
		if m, ok := capability.LookupHostMethod(l); ok && kind == HostMethod {
			c.Doc = Doc{Markdown(m.Markdown())}
		}
		out = append(out, c)
	}
	return out
}

var urlHost = regexp.MustCompile(`https://([A-Za-z0-9.-]+(?::[0-9]+)?)`)

// seenDomains are the hosts of https URLs written in the pages, and of the
// fetches of the last runs.
func seenDomains(p *checker.Plugin, runs map[string]*Run) []string {
	set := map[string]bool{}
	for _, t := range p.Manifest.Tools {
		pg, ok := checker.Str(t.Page)
		if !ok {
			continue
		}
		rel, ok := p.ResolvePage(pg)
		if !ok {
			continue
		}
		f, err := p.ReadFile(rel)
		if err != nil {
			continue
		}
		for _, m := range urlHost.FindAllSubmatch(f.Text, -1) {
			set[strings.ToLower(string(m[1]))] = true
		}
	}
	for _, r := range runs {
		if r.Record == nil {
			continue
		}
		for _, f := range r.Record.Fetches {
			if f.Host != "" {
				set[strings.ToLower(f.Host)] = true
			}
		}
	}
	return sortedKeys(set)
}

// listFiles walks the plugin directory (skipping hidden directories and
// node_modules, at most 2,000 files) and maps each slash path through keep.
func listFiles(pl *checker.Plugin, keep func(rel string) (string, bool)) []string {
	dir := pl.Dir
	set := map[string]bool{}
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > 2000 {
			return filepath.SkipAll
		}
		rel, ok := pl.Rel(p)
		if !ok {
			return nil
		}
		if out, ok := keep(rel); ok {
			set[out] = true
		}
		return nil
	})
	return sortedKeys(set)
}

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
