package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
)

// What exploration saw (checker.Config.Explored), placed on the calls of
// a page: not a rule, the shared reading of fetch-undeclared-domain,
// fetch-dynamic-url and fetch-unused-domain.

// exploredCall is one explored fetch placed at a call of the page's code.
type exploredCall struct {
	File string
	Span checker.Span
	Call *jspage.HostCall // nil: a call the static analysis does not see (an injected fetch)
	F    checker.ExploredFetch
	Tool string
}

// exploredCalls are the explored fetches of the tools bound to the page.
func exploredCalls(pass *checker.Pass, pi *pageInfo) []exploredCall {
	ex := pass.Config.Explored
	if len(ex) == 0 {
		return nil
	}
	calls := fetchCalls(pi)
	var out []exploredCall
	for _, t := range pi.Tools {
		name := toolName(t)
		e := ex[name]
		if e == nil {
			continue
		}
		for _, f := range e.Fetches {
			if f.Site.File == "" {
				continue
			}
			file, err := pass.Plugin.ReadFile(f.Site.File)
			if err != nil {
				continue
			}
			ec := exploredCall{File: f.Site.File, F: f, Tool: name}
			off := file.Offset(f.Site.Line-1, f.Site.Col-1)
			// the innermost fetch call around the position, else the last
			// one starting before it on the same line
			best := -1
			for i, c := range calls {
				if callFile(pi, c) != f.Site.File {
					continue
				}
				in := c.Span.Start <= off && off < c.Span.End
				sameLine := file.Position(c.Span.Start).Line == f.Site.Line-1 && c.Span.Start <= off
				if !in && !sameLine {
					continue
				}
				if best < 0 || c.Span.End-c.Span.Start < calls[best].Span.End-calls[best].Span.Start {
					best = i
				}
			}
			if best >= 0 {
				ec.Call = &calls[best]
				ec.Span = calls[best].Span
			} else {
				ec.Span = lineSpan(file.Text, off)
			}
			out = append(out, ec)
		}
	}
	return out
}

// lineSpan is the line around off, without its indentation.
func lineSpan(text []byte, off int) checker.Span {
	if off > len(text) {
		off = len(text)
	}
	s := off
	for s > 0 && text[s-1] != '\n' {
		s--
	}
	e := off
	for e < len(text) && text[e] != '\n' && text[e] != '\r' {
		e++
	}
	for s < e && (text[s] == ' ' || text[s] == '\t') {
		s++
	}
	return checker.Span{Start: s, End: e}
}

// reachedWith is the message's note of the input that reached a call.
func reachedWith(f checker.ExploredFetch) string {
	return fmt.Sprintf("reached with input %s", checker.Clip(f.Input, 200))
}

// CallReach is what the checker knows one fetch call reaches, static
// analysis and exploration together.
type CallReach struct {
	File    string // plugin-relative
	Line    int    // 1-based
	Hosts   []string
	Dynamic bool // may also reach hosts known only at run time
}

// FetchReach lists, per fetch call of every page, the hosts it reaches:
// the static targets, plus the hosts exploration saw there (a call
// exploration ran replaces the static "unknown" by what it saw, unless a
// marker of the input reached its host).
func FetchReach(p *checker.Plugin, cfg *checker.Config) []CallReach {
	pass := &checker.Pass{Plugin: p, Config: cfg, Cache: checker.NewCache()}
	type acc struct {
		hosts            map[string]bool
		staticDyn, xDyn  bool
		explored, static bool
	}
	byKey := map[string]*acc{}
	var keys []string
	get := func(file string, line int) *acc {
		k := fmt.Sprintf("%s\x00%09d", file, line)
		a := byKey[k]
		if a == nil {
			a = &acc{hosts: map[string]bool{}}
			byKey[k] = a
			keys = append(keys, k)
		}
		return a
	}
	for _, pi := range loadPages(pass) {
		for _, c := range fetchCalls(pi) {
			file := callFile(pi, c)
			f, err := p.ReadFile(file)
			if err != nil {
				continue
			}
			a := get(file, f.Position(c.Span.Start).Line+1)
			a.static = true
			for _, t := range urlTargets(c.URL) {
				switch {
				case t.host != "":
					a.hosts[t.host] = true
				case !t.relative:
					a.staticDyn = true
				}
			}
		}
		for _, ec := range exploredCalls(pass, pi) {
			f, err := p.ReadFile(ec.File)
			if err != nil {
				continue
			}
			a := get(ec.File, f.Position(ec.Span.Start).Line+1)
			a.explored = true
			if ec.F.Dynamic {
				a.xDyn = true
			} else if ec.F.Host != "" {
				a.hosts[ec.F.Host] = true
			}
		}
	}
	sort.Strings(keys)
	var out []CallReach
	for _, k := range keys {
		a := byKey[k]
		file, line, _ := strings.Cut(k, "\x00")
		n := 0
		fmt.Sscanf(line, "%d", &n)
		r := CallReach{File: file, Line: n, Dynamic: a.xDyn || a.staticDyn && !a.explored}
		for h := range a.hosts {
			r.Hosts = append(r.Hosts, h)
		}
		sort.Strings(r.Hosts)
		out = append(out, r)
	}
	return out
}

// undeclaredExplored reports whether an explored URL is refused as not
// allowed (or an IP literal): the host fetch-undeclared-domain names.
func undeclaredExplored(allow fetchurl.Allowlist, f checker.ExploredFetch) (string, bool) {
	if f.Dynamic || f.Guessed || f.Host == "" {
		return "", false
	}
	ft, r := allow.Check(f.URL)
	if r == nil || !(r.Reason == fetchurl.NotAllowed || r.Reason == fetchurl.IPLiteral) {
		return "", false
	}
	return ft.Host, true
}
