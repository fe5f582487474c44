package checker

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// Rule is one check: a stable code, its default severity, a
// doc, and Run. Rules live one per file in internal/checker/rules; docs/rules.md is
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
	if p.Plugin != nil {
		d = creatableFixes(p.Plugin.Dir, d)
	}
	*p.diags = append(*p.diags, d)
}

// creatableFixes drops the fixes of d that create a file the plugin-file
// writer refuses (a page under a symlinked code/, a path with ".."): the
// editor applying such a fix would create the file through the symlink.
// The message says which fix is not offered, and why.
func creatableFixes(dir string, d Diagnostic) Diagnostic {
	var kept []Fix
	for i, f := range d.Fixes {
		var refusal error
		for _, e := range f.Edits {
			if !e.Create {
				continue
			}
			if err := CheckPluginWrite(dir, e.File); errors.Is(err, ErrRefused) {
				refusal = err
				break
			}
		}
		if refusal != nil && kept == nil {
			kept = append([]Fix{}, d.Fixes[:i]...)
		}
		if refusal != nil {
			d.Message += fmt.Sprintf(" (no fix %q: %v)", f.Title, refusal)
		} else if kept != nil {
			kept = append(kept, f)
		}
	}
	if kept != nil {
		d.Fixes = kept
	}
	return d
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
	if cfg.Explore != nil && cfg.Explored == nil && p != nil && p.Manifest != nil {
		c := *cfg
		c.Explored = cfg.Explore(p)
		cfg = &c
	}
	var diags []Diagnostic
	for _, r := range rules {
		if r.Run == nil {
			continue
		}
		pass := &Pass{Plugin: p, Config: cfg, Cache: cache, rule: r, diags: &diags}
		runRule(pass, r)
	}
	redactSecrets(p, diags)
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
