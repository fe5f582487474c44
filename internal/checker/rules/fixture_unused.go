package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// FixtureUnused warns about a fixture that no page can reach.
var FixtureUnused = &checker.Rule{
	Code:     "fixture-unused",
	Severity: checker.Warning,
	Title:    "fixture that no page can fetch",
	Doc: "A `fnFetch` fixture in `fixtures.json` that no tool can ever be answered by is dead weight, and usually " +
		"a sign that a URL changed in the page but not in the fixture (a renamed path, a new query parameter). " +
		"A fixture is unreachable when the broker would refuse its URL (its host is not in `capabilities.fetch`, " +
		"or it is not https), or when no page fetches it: no `http.fetch` call has the same URL (query parameters " +
		"in any order, and the same method when both name one), no call's URL starts with a known prefix of it, " +
		"and no call has a host that is only known at run time.\n\n" +
		"The second check stays silent whenever the checker cannot be sure what the pages fetch: a missing or " +
		"unparsable page, or an `http` method it cannot name.\n\n" +
		"A dev secret (a key of `secrets`) is unused when no credential of `capabilities.credentials` has its " +
		"name: the broker looks a credential's secret up by its exact name, so a misspelt key leaves the " +
		"credential without a secret and the request goes out without it. When the key is a typo of a " +
		"credential's name (\"openlibary_key\" for \"openlibrary_key\"), the preferred fix renames the key. " +
		"Secrets are only checked when the manifest declares credentials.",
	Lang:   "json",
	Before: "{ \"fnFetch\": [{ \"url\": \"https://api.openlibrary.org/v0/search.json?q=hobbit\", \"body\": {} }] }",
	After:  "{ \"fnFetch\": [{ \"url\": \"https://api.openlibrary.org/search.json?q=hobbit\", \"body\": {} }] }",
	Fix:    "Remove the fixture from `fixtures.json`; rename a secret to the credential name it misspells.",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.FixturesError != nil || p.FixturesRoot == nil || p.SyntaxError != nil {
			return
		}
		unusedSecrets(pass)
		arr := p.FixturesRoot.Get("fnFetch")
		if arr == nil || arr.Kind != jsonpos.Array {
			return
		}
		allow := allowlist(p)
		calls, sure := reachableFetches(pass)
		invalid := map[string]bool{} // fixtures the schema reports: one mistake, one diagnostic
		for _, pr := range fixturesProblems(pass) {
			if ptr := strings.Split(pr.Pointer, "/"); len(ptr) >= 3 && ptr[1] == "fnFetch" {
				invalid[ptr[2]] = true
			}
		}
		for i, e := range arr.Elems {
			if invalid[strconv.Itoa(i)] {
				continue
			}
			un := e.Get("url")
			u, ok := checker.Str(un)
			if !ok || u == "" {
				continue // the schema reports it
			}
			m, _ := checker.Str(e.Get("method"))
			why, host := "", ""
			if t, r := allow.Check(u); r != nil {
				why = fmt.Sprintf("the broker refuses this URL (%s), so no tool can be answered by this fixture", strings.TrimSuffix(r.Message, "."))
				host = t.Host // a root cause (a misspelt or malformed fetch entry) may explain it
			} else if sure && !fixtureReached(calls, strings.ToUpper(m), u) {
				why = "no page fetches this URL"
				if m != "" {
					why = "no page fetches " + strings.ToUpper(m) + " " + u
				}
				why += ": the fixture is never used (did the page's URL change?)"
			}
			if why == "" {
				continue
			}
			d := checker.Diagnostic{File: checker.FixturesName, Span: checker.SpanOf(un), Message: why, Subject: host, Tags: []checker.Tag{checker.Unnecessary}}
			if ed, err := jsonedit.RemoveElement(p.FixturesFile, e); err == nil {
				d.Fixes = []checker.Fix{{Title: "Remove the fixture for " + u, Edits: []checker.Edit{ed}, Removes: true}}
			}
			pass.Report(d)
		}
	},
}

// reachableFetches returns every page's http.fetch calls, and sure false
// when the checker cannot know every URL the pages may fetch.
func reachableFetches(pass *checker.Pass) (calls []jspage.HostCall, sure bool) {
	p := pass.Plugin
	if tn := p.Manifest.ToolsNode; tn != nil && tn.Kind != jsonpos.Array {
		return nil, false
	}
	pages := loadPages(pass)
	bound := 0
	for _, pi := range pages {
		bound += len(pi.Tools)
	}
	if bound != len(p.Manifest.Tools) {
		return nil, false // a page is missing
	}
	for _, pi := range pages {
		if hasPageErrors(pi) {
			return nil, false
		}
		for _, c := range pi.Page.Calls {
			if c.Object == "http" && c.Method != "fetch" {
				return nil, false
			}
		}
		calls = append(calls, fetchCalls(pi)...)
	}
	return calls, true
}

// fixtureReached reports whether some call may be answered by the fixture.
func fixtureReached(calls []jspage.HostCall, method, u string) bool {
	for _, c := range calls {
		if _, ok := urlTarget(c.URL); !ok {
			return true // a host known only at run time: any URL
		}
		if method != "" && c.FetchMethod != "" && c.FetchMethod != method {
			continue
		}
		switch c.URL.Kind {
		case jspage.Exact:
			if fixtures.SameURL(u, c.URL.Value) {
				return true
			}
		case jspage.Prefix:
			if strings.HasPrefix(strings.ToLower(u), strings.ToLower(c.URL.Value)) {
				return true
			}
		}
	}
	return false
}

// unusedSecrets reports the keys of fixtures.json "secrets" that no
// credential is named (the broker looks secrets up by exact name), with
// the rename to the credential name a key misspells. It says nothing
// when the manifest declares no credential, or one without a readable
// name: then the names are not known (a misspelt "capabilities" is the
// cause to report, not every secret).
func unusedSecrets(pass *checker.Pass) {
	p := pass.Plugin
	secrets := p.FixturesRoot.Get("secrets")
	creds := p.Manifest.Credentials
	if secrets == nil || secrets.Kind != jsonpos.Object || len(creds) == 0 {
		return
	}
	declared := map[string]bool{}
	var names []string
	for _, c := range creds {
		s, ok := checker.Str(c.Name)
		if !ok || s == "" {
			return
		}
		if !declared[s] {
			declared[s] = true
			names = append(names, s)
		}
	}
	has := map[string]bool{}
	for _, m := range secrets.Members {
		has[m.Key] = true
	}
	// A credential without a secret is the likelier meaning of a typo.
	sort.SliceStable(names, func(i, j int) bool { return !has[names[i]] && has[names[j]] })
	invalid := map[string]bool{}
	for _, pr := range fixturesProblems(pass) {
		if ptr := strings.Split(pr.Pointer, "/"); len(ptr) >= 3 && ptr[1] == "secrets" {
			invalid[ptr[2]] = true
		}
	}
	for _, m := range secrets.Members {
		if declared[m.Key] || invalid[jsonPointerToken(m.Key)] || m.KeySpan.End <= m.KeySpan.Start {
			continue
		}
		d := checker.Diagnostic{
			File: checker.FixturesName, Span: m.KeySpan,
			Message: fmt.Sprintf("secret %q names no credential in capabilities.credentials: the broker never uses it", m.Key),
			Tags:    []checker.Tag{checker.Unnecessary},
		}
		if use := suggest.Closest(m.Key, names); use != "" {
			d.Message = fmt.Sprintf("secret %q names no credential (did you mean %q?)", m.Key, use)
			d.Tags = nil // a typo, not dead weight
			if !has[use] {
				d.Message += fmt.Sprintf(": the broker looks secrets up by exact name, so credential %q has none and run refuses its requests", use)
				if env, err := capability.DevSecretEnv(capability.PluginName(p.Manifest), use); err == nil {
					d.Message += fmt.Sprintf(" unless %s is set", env)
				}
				d.Fixes = append(d.Fixes, checker.Fix{
					Title:     fmt.Sprintf("Rename the secret to %q (the credential's name)", use),
					Edits:     []checker.Edit{{File: checker.FixturesName, Span: m.KeySpan, NewText: jsonString(use)}},
					Preferred: true,
				})
			}
		}
		if ed, err := jsonedit.RemoveElement(p.FixturesFile, m); err == nil {
			d.Fixes = append(d.Fixes, checker.Fix{Title: fmt.Sprintf("Remove the secret %q", m.Key), Edits: []checker.Edit{ed}, Removes: true})
		}
		pass.Report(d)
	}
}

// jsonPointerToken escapes a key as one JSON pointer token.
func jsonPointerToken(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
