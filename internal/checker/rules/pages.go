package rules

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
)

// Helpers shared by the page rules.

// pageInfo is one function-tool page with its analysis and the tools
// bound to it (several tools may share a page).
type pageInfo struct {
	Rel   string
	File  *checker.File
	Page  *jspage.Page
	Tools []*checker.Tool
}

// loadPages returns every existing page of the manifest's tools, each
// analysed once per content (pass.Cache), in manifest order. Pages that
// are missing or outside the directory are tool-page-missing's business.
func loadPages(pass *checker.Pass) []*pageInfo {
	p := pass.Plugin
	var out []*pageInfo
	byRel := map[string]*pageInfo{}
	texts := map[string][]byte{}
	var rels []string
	// Many tools may name one page: each name is resolved (cleaned, its
	// candidates looked up) once.
	type resolved struct {
		rel   string
		found bool
	}
	seen := map[string]resolved{}
	for _, t := range p.Manifest.Tools {
		page, ok := checker.Str(t.Page)
		if !ok || page == "" {
			continue
		}
		r, done := seen[page]
		if !done {
			r.rel, r.found = p.ResolvePage(page)
			seen[page] = r
		}
		rel, found := r.rel, r.found
		if !found {
			continue
		}
		if pi := byRel[rel]; pi != nil {
			pi.Tools = append(pi.Tools, t)
			continue
		}
		f, err := p.ReadFile(rel)
		if err != nil {
			continue
		}
		pi := &pageInfo{Rel: rel, File: f, Tools: []*checker.Tool{t}}
		byRel[rel] = pi
		out = append(out, pi)
		texts[rel] = f.Text
		rels = append(rels, rel)
	}
	for i, page := range analyzePages(pass, rels, texts) {
		byRel[rels[i]].Page = page
	}
	return out
}

// analyzePages analyses pages (their paths, and their texts as the pass
// sees them) with the files they import, through the cache: an entry is
// keyed by the page's path and content, and its answer is reused while
// every file it read still has the content it had. The stale pages are
// analysed together (jspage.AnalyzeBundles: one esbuild build, each shared
// lib file parsed once), so an edit to a lib file re-analyses only the
// pages that import it, in one build. A cached Page is shared: never
// modify it.
func analyzePages(pass *checker.Pass, rels []string, texts map[string][]byte) []*jspage.Page {
	p := pass.Plugin
	var mu sync.Mutex
	// What this pass read, once per file: a lib file many pages import is
	// checked (path, symlinks) and hashed once.
	type result struct {
		text []byte
		hash [32]byte
		err  error
	}
	got := map[string]*result{}
	get := func(r string) *result {
		mu.Lock() // esbuild resolves imports concurrently
		defer mu.Unlock()
		if res, ok := got[r]; ok {
			return res
		}
		res := &result{}
		if t, ok := texts[r]; ok {
			res.text = t // a page, as the pass sees it
		} else if c, err := checker.Clean(r); err != nil || !p.Exists(c) {
			res.err = fs.ErrNotExist
		} else if f, err := p.ReadFile(c); err != nil { // refuses a file outside the plugin (symlinks)
			res.err = err
		} else {
			res.text = f.Text
		}
		if res.err == nil {
			res.hash = sha256.Sum256(res.text)
		}
		got[r] = res
		return res
	}
	read := func(r string) ([]byte, error) {
		res := get(r)
		return res.text, res.err
	}
	hash := func(r string) ([32]byte, error) {
		res := get(r)
		return res.hash, res.err
	}
	entries := make([]*bundleEntry, len(rels))
	for i, rel := range rels {
		entries[i] = pass.Cache.Memo("page:"+rel, texts[rel], func() any { return &bundleEntry{} }).(*bundleEntry)
	}
	// Lock the entries in one order (by path) whatever the manifest's:
	// two passes never wait for each other in a cycle.
	order := make([]int, len(rels))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return rels[order[a]] < rels[order[b]] })
	for _, i := range order {
		entries[i].mu.Lock()
		defer entries[i].mu.Unlock()
	}
	out := make([]*jspage.Page, len(rels))
	var stale []int
	var staleRels []string
	for i, h := range entries {
		if h.page != nil && h.fresh(rels[i], hash) {
			out[i] = h.page
			continue
		}
		stale = append(stale, i)
		staleRels = append(staleRels, rels[i])
	}
	if len(stale) > 0 {
		for k, page := range jspage.AnalyzeBundles(staleRels, read) {
			entries[stale[k]].page = page
			out[stale[k]] = page
		}
	}
	return out
}

// bundleEntry is the last analysis of one page content.
type bundleEntry struct {
	mu   sync.Mutex
	page *jspage.Page
}

// fresh reports whether every file the analysis read is unchanged.
func (b *bundleEntry) fresh(entry string, hash func(rel string) ([32]byte, error)) bool {
	for _, f := range b.page.Files {
		if f.Rel == entry {
			continue // the page's content is the cache key
		}
		h, err := hash(f.Rel)
		if f.Missing {
			if err == nil {
				return false // the file an import looked for now exists
			}
			continue
		}
		if err != nil || h != f.Hash {
			return false
		}
	}
	return true
}

// hasPageErrors reports whether the page could not be read fully.
func hasPageErrors(pi *pageInfo) bool { return len(pi.Page.Errors) > 0 }

// fetchCalls returns the http.fetch calls of a page.
func fetchCalls(pi *pageInfo) []jspage.HostCall {
	var out []jspage.HostCall
	for _, c := range pi.Page.Calls {
		if c.Object == "http" && c.Method == "fetch" {
			out = append(out, c)
		}
	}
	return out
}

// urlTarget is what the checker knows about a fetch URL: the URL to give
// to fetchurl (the exact URL, or the known scheme and authority of a
// prefix followed by "/"), or ok false when the host is not known.
func urlTarget(u *jspage.URLArg) (raw string, ok bool) {
	if u == nil {
		return "", false
	}
	switch u.Kind {
	case jspage.Exact:
		return u.Value, true
	case jspage.Prefix:
		i := strings.Index(u.Value, "://")
		if i < 0 {
			return "", false
		}
		rest := u.Value[i+3:]
		j := strings.IndexAny(rest, "/?#")
		if j < 0 {
			return "", false // the host may go on: "https://api.x.com" + suffix
		}
		return u.Value[:i+3+j] + "/", true
	}
	return "", false
}

// schemeOf returns the lower-cased scheme of a URL or prefix ("" if none
// is complete).
func schemeOf(s string) string {
	i := strings.Index(s, "://")
	if i <= 0 {
		return ""
	}
	for _, c := range s[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return ""
		}
	}
	return strings.ToLower(s[:i])
}

// capabilityRelated points at capabilities.fetch (or host), or at the
// manifest root when the list is absent.
func capabilityRelated(p *checker.Plugin, which string) []checker.Related {
	m := p.Manifest
	n := m.FetchNode
	if which == "host" {
		n = m.HostNode
	}
	if n != nil {
		return []checker.Related{{File: checker.ManifestName, Span: checker.KeySpanOf(n), Message: "capabilities." + which + " is declared here"}}
	}
	if m.CapabilitiesNode != nil {
		return []checker.Related{{File: checker.ManifestName, Span: checker.KeySpanOf(m.CapabilitiesNode), Message: "capabilities has no \"" + which + "\" list"}}
	}
	return []checker.Related{{File: checker.ManifestName, Span: checker.Span{}, Message: "plugin.json has no capabilities"}}
}

// toolsRelated points at the manifest entries of the tools a page serves.
func toolsRelated(pi *pageInfo) []checker.Related {
	var out []checker.Related
	for _, t := range pi.Tools {
		out = append(out, checker.Related{File: checker.ManifestName, Span: toolSpan(t), Message: "tool " + toolName(t) + " runs this page"})
	}
	return out
}

// addToCapabilityFix adds value to capabilities.<which>, creating the
// objects that are missing; nil when the manifest cannot take the edit.
func addToCapabilityFix(p *checker.Plugin, which, value string) []checker.Fix {
	if p.SyntaxError != nil || p.Manifest.Root == nil {
		return nil
	}
	e, err := jsonedit.AddToPath(p.ManifestFile, p.Manifest.Root, []string{"capabilities", which}, jsonString(value))
	if err != nil {
		return nil
	}
	return []checker.Fix{{Title: fmt.Sprintf("Add %q to capabilities.%s", value, which), Edits: []checker.Edit{e}}}
}

// toolName returns a tool's name for messages.
func toolName(t *checker.Tool) string {
	if n, ok := checker.Str(t.Name); ok && n != "" {
		return n
	}
	return fmt.Sprintf("#%d", t.Node.Index+1)
}

// toolSpan is where a manifest diagnostic about a tool goes: its name.
func toolSpan(t *checker.Tool) checker.Span {
	if t.Name != nil {
		return checker.SpanOf(t.Name)
	}
	return checker.SpanOf(t.Node)
}

// allowlist is the plugin's reachable hosts as the broker sees them (the
// capability model: a malformed fetch entry grants nothing).
func allowlist(p *checker.Plugin) fetchurl.Allowlist {
	return capability.FromManifest(p.Manifest).Allowlist()
}

// callFile is the file a call is in.
func callFile(pi *pageInfo, c jspage.HostCall) string {
	if c.File != "" {
		return c.File
	}
	return pi.Rel
}

// fileOrPage is the file of a page finding ("" means the page).
func fileOrPage(pi *pageInfo, file string) string {
	if file != "" {
		return file
	}
	return pi.Rel
}

// target is what the checker knows about one URL a fetch may use.
type target struct {
	raw      string // the URL for fetchurl (exact, or scheme://host/), "" when the host is unknown
	host     string // its host, "" when unknown or not a host
	relative bool   // a relative URL ("/x"): no host at all
	prefix   string // the known start, for messages and for fetch-unused-domain
	reason   string // why the host is unknown
	value    jspage.URLValue
}

// urlTargets returns one target per URL the argument may hold.
func urlTargets(u *jspage.URLArg) []target {
	if u == nil {
		return nil
	}
	vals := u.Values
	if len(vals) == 0 {
		vals = []jspage.URLValue{{Kind: u.Kind, Value: u.Value, Reason: u.Reason, Lit: u.Lit}}
	}
	var out []target
	for _, v := range vals {
		t := target{prefix: v.Value, reason: v.Reason, value: v}
		raw, ok := urlTarget(&jspage.URLArg{Kind: v.Kind, Value: v.Value})
		switch {
		case ok:
			t.raw = raw
			if ft, _ := fetchurl.Parse(raw); ft.Host != "" {
				t.host = ft.Host
			}
		case v.Kind == jspage.Prefix && len(v.Value) > 0 && v.Value[0] == '/' && (len(v.Value) < 2 || v.Value[1] != '/'):
			t.relative = true
		}
		out = append(out, t)
	}
	return out
}

// dedup reports each diagnostic once: several pages may import the same
// lib file, and its findings belong to the file, not to each page.
type dedup struct {
	pass *checker.Pass
	seen map[string]bool
}

func newDedup(pass *checker.Pass) *dedup { return &dedup{pass: pass, seen: map[string]bool{}} }

func (d *dedup) report(diag checker.Diagnostic) {
	k := fmt.Sprintf("%s:%d:%d:%s", diag.File, diag.Span.Start, diag.Span.End, diag.Message)
	if d.seen[k] {
		return
	}
	d.seen[k] = true
	d.pass.Report(diag)
}
