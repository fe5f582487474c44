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
// nativeTools[].names.
func (vw *View) Complete(rel string, off int) []Candidate {
	p := vw.Plugin
	if p == nil || rel != checker.ManifestName {
		return nil
	}
	f, err := p.ReadFile(rel)
	if err != nil {
		return nil
	}
	n := nodeAt(p.Manifest.Root, off)
	if n == nil || onKey(n, off) {
		return nil
	}
	// The string being typed (replaced by the completion), or an insertion
	// point between array elements.
	var str *jsonpos.Node
	arr := n
	if n.Kind == jsonpos.String {
		str, arr = n, n.Parent
	}
	if arr == nil {
		return nil
	}
	where := pathOfNode(arr)
	if str != nil && arr.Kind == jsonpos.Object {
		where = pathOfNode(str)
	}
	whole := completionManifest(p.Manifest, f.Text, off)
	var labels []string
	var kind Kind
	var detail string
	switch {
	case matchPath(where, "capabilities", "host") && len(where) == 2:
		have := setOf(capability.FromManifest(whole).Host)
		for _, m := range capability.HostMethodNames() {
			if !have[m] || str != nil && str.Str == m {
				labels = append(labels, m)
			}
		}
		kind, detail = HostMethod, "host method"
	case matchPath(where, "capabilities", "fetch") && len(where) == 2,
		matchPath(where, "capabilities", "fetch", "[]", "domain") && len(where) == 4,
		matchPath(where, "capabilities", "credentials", "[]", "domains") && len(where) == 4:
		reach := capability.FromManifest(whole)
		have := setOf(reach.Domains())
		inFetch := where[1] == "fetch"
		for _, d := range seenDomains(p, vw.Runs) {
			if !inFetch || !have[d] {
				labels = append(labels, d)
			}
		}
		if !inFetch {
			labels = reach.Domains()
		}
		kind, detail = Domain, "domain"
	case matchPath(where, "tools", "[]", "page") && len(where) == 3:
		labels = listFiles(p, func(rel string) (string, bool) {
			ext := path.Ext(rel)
			if ext != ".ts" && ext != ".js" || strings.HasPrefix(rel, "native/") {
				return "", false
			}
			return strings.TrimSuffix(rel, ext), true
		})
		kind, detail = PagePath, "page"
	case matchPath(where, "nativeTools", "[]", "module") && len(where) == 3:
		labels = listFiles(p, func(rel string) (string, bool) {
			ext := path.Ext(rel)
			return rel, ext == ".js" || ext == ".mjs"
		})
		kind, detail = ModulePath, "native module"
	case matchPath(where, "nativeTools", "[]", "names") && len(where) == 3:
		ntNode := arr.Parent
		for _, nt := range p.Manifest.NativeTools {
			if nt.Node != ntNode {
				continue
			}
			mod, _ := checker.Str(nt.Module)
			if m, _ := moduleInfo(p, mod); m != nil && m.Tools != nil {
				have := map[string]bool{}
				for _, x := range nt.Names {
					if s, ok := checker.Str(x); ok {
						have[s] = true
					}
				}
				for _, e := range m.Tools.Entries {
					if !have[e.Name] || str != nil && str.Str == e.Name {
						labels = append(labels, e.Name)
					}
				}
			}
		}
		kind, detail = NativeName, "exported native tool"
	default:
		return nil
	}
	var replace *checker.Span
	if str != nil {
		// replace the string's content, quotes kept
		sp := checker.Span{Start: str.Span.Start + 1, End: str.Span.End - 1}
		if str.Span.End-str.Span.Start < 2 || f.Text[str.Span.End-1] != '"' {
			sp.End = str.Span.End
		}
		if sp.End < sp.Start {
			sp.End = sp.Start
		}
		replace = &sp
	}
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
