package analysis

import (
	"crypto/sha256"
	"fmt"
	"runtime/debug"
	"sync"
)

// Rule is one check: a stable code (DESIGN.md §4), its default severity, a
// doc, and Run. Rules live one per file in analysis/rules; docs/rules.md is
// generated from these fields.
type Rule struct {
	Code     string
	Severity Severity
	// Title is one line; Doc explains what and why (Markdown).
	Title string
	Doc   string
	// Before is an example that triggers the rule, After the same example
	// fixed: small snippets in the language Lang.
	Before, After string
	Lang          string // "json", "ts", "js"
	// Fix describes the quick fix offered, "" when there is none.
	Fix string
	Run func(*Pass)
	// Refine, set instead of Run on a pass that reports nothing of its
	// own, runs after every rule has run and returns the diagnostics
	// changed: fixes ranked across rules, consequences tied to their
	// cause. It must not drop an error without tying it to another one.
	Refine func(pass *Pass, diags []Diagnostic) []Diagnostic
}

// Reports reports whether the rule is a check with a code of its own (not
// a Refine pass): what docs and rule lists show.
func (r *Rule) Reports() bool { return r.Run != nil }

// Pass is what a rule sees while it runs.
type Pass struct {
	Plugin *Plugin
	Config *Config
	Cache  *Cache
	rule   *Rule
	diags  *[]Diagnostic
}

// Report records a diagnostic. Code and Severity default to the rule's.
func (p *Pass) Report(d Diagnostic) {
	if d.Code == "" {
		d.Code = p.rule.Code
	}
	if d.Severity == 0 {
		d.Severity = p.rule.Severity
	}
	*p.diags = append(*p.diags, d)
}

// Reportf records a diagnostic with the rule's code and severity.
func (p *Pass) Reportf(file string, span Span, format string, args ...any) {
	p.Report(Diagnostic{File: file, Span: span, Message: fmt.Sprintf(format, args...)})
}

// InternalErrorCode is reported when a rule panics; the check goes on.
const InternalErrorCode = "internal-error"

// Run applies rules to a plugin and returns every diagnostic, sorted. A
// rule that panics yields an internal-error diagnostic on the manifest
// instead of taking the caller down. cfg and cache may be nil.
func Run(p *Plugin, rules []*Rule, cfg *Config, cache *Cache) []Diagnostic {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	if cache == nil {
		cache = NewCache()
	}
	var diags []Diagnostic
	for _, r := range rules {
		if r.Run == nil {
			continue
		}
		pass := &Pass{Plugin: p, Config: cfg, Cache: cache, rule: r, diags: &diags}
		runRule(pass, r)
	}
	SortDiagnostics(diags)
	for _, r := range rules {
		if r.Refine == nil {
			continue
		}
		pass := &Pass{Plugin: p, Config: cfg, Cache: cache, rule: r, diags: &diags}
		diags = refine(pass, r, diags)
	}
	SortDiagnostics(diags)
	return diags
}

// refine runs a Refine pass; when it panics the diagnostics stay as they
// were, plus an internal-error.
func refine(pass *Pass, r *Rule, in []Diagnostic) (out []Diagnostic) {
	kept := append([]Diagnostic(nil), in...)
	defer func() {
		if e := recover(); e != nil {
			out = append(kept, Diagnostic{
				File: ManifestName, Severity: Error, Code: InternalErrorCode,
				Message: fmt.Sprintf("pass %s crashed (please report this): %v\n%s", r.Code, e, debug.Stack()),
			})
		}
	}()
	return r.Refine(pass, in)
}

func runRule(pass *Pass, r *Rule) {
	defer func() {
		if e := recover(); e != nil {
			pass.Report(Diagnostic{
				File: ManifestName, Severity: Error, Code: InternalErrorCode,
				Message: fmt.Sprintf("rule %s crashed (please report this): %v\n%s", r.Code, e, debug.Stack()),
			})
		}
	}()
	r.Run(pass)
}

// Cache memoizes per-file analyses (page host calls, module exports) by
// kind and content hash, so an edit to one file re-analyses only that
// file. It is safe for concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[cacheKey]any
}

type cacheKey struct {
	kind string
	hash [32]byte
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[cacheKey]any{}} }

// Memo returns the cached result of compute for (kind, content), computing
// it once. compute must depend on nothing but content.
func (c *Cache) Memo(kind string, content []byte, compute func() any) any {
	k := cacheKey{kind, sha256.Sum256(content)}
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
	return v
}

// Len returns the number of cached entries.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
