package lsp

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/capability"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// Completion in plugin.json: host methods in capabilities.host, domains
// seen in the pages (and in runs) in capabilities.fetch and credential
// domains, page paths in tools[].page, module paths in
// nativeTools[].module, exported names in nativeTools[].names.
func (s *Server) Completion(ctx context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	sn, rel := s.snapshotOf(params.TextDocument.URI)
	if sn == nil || rel != analysis.ManifestName {
		return list, nil
	}
	f := sn.file(rel)
	off := sn.enc.fromPosition(f, params.Position)
	p := sn.plugin
	n := nodeAt(p.Manifest.Root, off)
	if n == nil || onKey(n, off) {
		return list, nil
	}
	// The string being typed (replaced by the completion), or an insertion
	// point between array elements.
	var str *jsonpos.Node
	arr := n
	if n.Kind == jsonpos.String {
		str, arr = n, n.Parent
	}
	if arr == nil {
		return list, nil
	}
	where := pathOfNode(arr)
	if str != nil && arr.Kind == jsonpos.Object {
		where = pathOfNode(str)
	}
	whole := completionManifest(p.Manifest, f.Text, off)
	var labels []string
	var kind protocol.CompletionItemKind
	var detail string
	switch {
	case matchPath(where, "capabilities", "host") && len(where) == 2:
		have := setOf(capability.FromManifest(whole).Host)
		for _, m := range capability.HostMethodNames() {
			if !have[m] || str != nil && str.Str == m {
				labels = append(labels, m)
			}
		}
		kind, detail = protocol.CompletionItemKindFunction, "host method"
	case matchPath(where, "capabilities", "fetch") && len(where) == 2,
		matchPath(where, "capabilities", "fetch", "[]", "domain") && len(where) == 4,
		matchPath(where, "capabilities", "credentials", "[]", "domains") && len(where) == 4:
		reach := capability.FromManifest(whole)
		have := setOf(reach.Domains())
		inFetch := where[1] == "fetch"
		for _, d := range seenDomains(p, sn.runs) {
			if !inFetch || !have[d] {
				labels = append(labels, d)
			}
		}
		if !inFetch {
			labels = reach.Domains()
		}
		kind, detail = protocol.CompletionItemKindValue, "domain"
	case matchPath(where, "tools", "[]", "page") && len(where) == 3:
		labels = listFiles(p.Dir, func(rel string) (string, bool) {
			ext := path.Ext(rel)
			if ext != ".ts" && ext != ".js" || strings.HasPrefix(rel, "native/") {
				return "", false
			}
			return strings.TrimSuffix(rel, ext), true
		})
		kind, detail = protocol.CompletionItemKindFile, "page"
	case matchPath(where, "nativeTools", "[]", "module") && len(where) == 3:
		labels = listFiles(p.Dir, func(rel string) (string, bool) {
			ext := path.Ext(rel)
			return rel, ext == ".js" || ext == ".mjs"
		})
		kind, detail = protocol.CompletionItemKindModule, "native module"
	case matchPath(where, "nativeTools", "[]", "names") && len(where) == 3:
		ntNode := arr.Parent
		for _, nt := range p.Manifest.NativeTools {
			if nt.Node != ntNode {
				continue
			}
			mod, _ := analysis.Str(nt.Module)
			if m, _ := moduleInfo(p, mod); m != nil && m.Tools != nil {
				have := map[string]bool{}
				for _, x := range nt.Names {
					if s, ok := analysis.Str(x); ok {
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
		kind, detail = protocol.CompletionItemKindFunction, "exported native tool"
	default:
		return list, nil
	}
	for _, l := range labels {
		item := protocol.CompletionItem{Label: l, Kind: kind, Detail: protocol.NewOptional(detail)}
		if m, ok := capability.LookupHostMethod(l); ok && detail == "host method" {
			item.Documentation = markup(m.Markdown(), sn.caps.completionDocMD)
		}
		if str != nil {
			// replace the string's content, quotes kept
			sp := analysis.Span{Start: str.Span.Start + 1, End: str.Span.End - 1}
			if str.Span.End-str.Span.Start < 2 || f.Text[str.Span.End-1] != '"' {
				sp.End = str.Span.End
			}
			if sp.End < sp.Start {
				sp.End = sp.Start
			}
			item.TextEdit = &protocol.TextEdit{Range: sn.enc.toRange(f, sp), NewText: l}
			item.FilterText = protocol.NewOptional(l)
		} else {
			item.InsertText = protocol.NewOptional(`"` + l + `"`)
		}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

var urlHost = regexp.MustCompile(`https://([A-Za-z0-9.-]+(?::[0-9]+)?)`)

// seenDomains are the hosts of https URLs written in the pages, and of the
// fetches of the last runs.
func seenDomains(p *analysis.Plugin, runs map[string]*toolRun) []string {
	set := map[string]bool{}
	for _, t := range p.Manifest.Tools {
		pg, ok := analysis.Str(t.Page)
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
		if r.record == nil {
			continue
		}
		for _, f := range r.record.Fetches {
			if f.Host != "" {
				set[strings.ToLower(f.Host)] = true
			}
		}
	}
	return sortedKeys(set)
}

// listFiles walks the plugin directory (skipping hidden directories and
// node_modules, at most 2,000 files) and maps each slash path through keep.
func listFiles(dir string, keep func(rel string) (string, bool)) []string {
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
		rel, ok := relTo(dir, p)
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
