package lockfile

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/native"
)

// Kinds of change.
const (
	KindTool          = "function tool"
	KindHost          = "host"
	KindFetch         = "fetch"
	KindMaxBytes      = "fetchMaxBytes"
	KindTimeoutMs     = "fetchTimeoutMs"
	KindCredential    = "credential"
	KindCredScope     = "credential scope"
	KindCredHeader    = "credential header"
	KindNative        = "native tool"
	KindNativeModule  = "native module"
	KindNeedsApproval = "needsApproval"
	KindRequires      = "requires"
)

// Change is one difference of reach between the pinned snapshot and now.
type Change struct {
	// Widened: the reach grew (an error until re-pinned); otherwise it
	// narrowed.
	Widened bool
	Kind    string
	// Value is what changed: a host, a method, a credential or tool name,
	// the new cap or approval level.
	Value string
	// Pinned is what the snapshot holds for it ("" when nothing).
	Pinned string
	// Subject is what Value belongs to: the host of a cap, the credential
	// of a scope or header ("" otherwise).
	Subject string
	// Tools are the tools whose reach changed (function tools by name,
	// native tools by their registered name).
	Tools []string
}

// Line renders a change for the review card: "+ api.x.org (fetch, tool
// searchBooks)", "- collections.put (host, tools a, b)".
func (c Change) Line() string {
	sign := "-"
	if c.Widened {
		sign = "+"
	}
	what := c.Value
	switch {
	case c.Kind == KindTool || c.Kind == KindNative:
		return fmt.Sprintf("%s %s (%s)", sign, what, c.Kind)
	case c.Subject != "" && c.Pinned != "":
		what = fmt.Sprintf("%s %s of %s (was %s)", c.Kind, c.Value, c.Subject, c.Pinned)
		return fmt.Sprintf("%s %s, %s", sign, what, toolsPhrase(c.Tools))
	case c.Subject != "":
		return fmt.Sprintf("%s %s (%s of %s, %s)", sign, what, c.Kind, c.Subject, toolsPhrase(c.Tools))
	case c.Pinned != "":
		return fmt.Sprintf("%s %s %s (was %s, %s)", sign, c.Kind, what, c.Pinned, toolsPhrase(c.Tools))
	}
	return fmt.Sprintf("%s %s (%s, %s)", sign, what, c.Kind, toolsPhrase(c.Tools))
}

func toolsPhrase(ts []string) string {
	if len(ts) == 1 {
		return "tool " + ts[0]
	}
	return "tools " + strings.Join(ts, ", ")
}

// Diff compares the pinned snapshot with the current one (files are not
// compared: see Stale). Changes come widened first, then in a stable order.
func Diff(pinned, cur *Lock) []Change {
	type key struct {
		w                            bool
		kind, value, pinned, subject string
	}
	var order []key
	tools := map[key][]string{}
	add := func(w bool, kind, value, was, subject, tool string) {
		k := key{w, kind, value, was, subject}
		if _, ok := tools[k]; !ok {
			order = append(order, k)
		}
		if !slices.Contains(tools[k], tool) {
			tools[k] = append(tools[k], tool)
		}
	}
	old := map[string]FunctionTool{}
	for _, t := range pinned.FunctionTools {
		old[t.Name] = t
	}
	seen := map[string]bool{}
	for _, t := range cur.FunctionTools {
		seen[t.Name] = true
		o, ok := old[t.Name]
		if !ok {
			add(true, KindTool, "fn."+t.Name, "", "", t.Name)
			continue
		}
		diffTool(o, t, func(w bool, kind, value, was, subject string) { add(w, kind, value, was, subject, t.Name) })
	}
	for _, t := range pinned.FunctionTools {
		if !seen[t.Name] {
			add(false, KindTool, "fn."+t.Name, "", "", t.Name)
		}
	}
	oldN := map[string]NativeTool{}
	for _, n := range pinned.NativeTools {
		oldN[n.Name] = n
	}
	seenN := map[string]bool{}
	for _, n := range cur.NativeTools {
		seenN[n.Name] = true
		o, ok := oldN[n.Name]
		if !ok {
			add(true, KindNative, n.Name, "", "", n.Name)
			continue
		}
		if o.Module != n.Module {
			add(true, KindNativeModule, n.Module, o.Module, "", n.Name)
		}
		if r0, r1 := native.ApprovalRank(o.NeedsApproval), native.ApprovalRank(n.NeedsApproval); r1 != r0 {
			add(r1 < r0, KindNeedsApproval, n.NeedsApproval, o.NeedsApproval, "", n.Name)
		}
		for _, r := range n.Requires {
			if !slices.Contains(o.Requires, r) {
				add(true, KindRequires, r, "", "", n.Name)
			}
		}
		for _, r := range o.Requires {
			if !slices.Contains(n.Requires, r) {
				add(false, KindRequires, r, "", "", n.Name)
			}
		}
	}
	for _, n := range pinned.NativeTools {
		if !seenN[n.Name] {
			add(false, KindNative, n.Name, "", "", n.Name)
		}
	}
	var out []Change
	for _, k := range order {
		out = append(out, Change{Widened: k.w, Kind: k.kind, Value: k.value, Pinned: k.pinned, Subject: k.subject, Tools: tools[k]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Widened && !out[j].Widened })
	return out
}

func diffTool(o, t FunctionTool, add func(w bool, kind, value, was, subject string)) {
	for _, h := range t.Host {
		if !slices.Contains(o.Host, h) {
			add(true, KindHost, h, "", "")
		}
	}
	for _, h := range o.Host {
		if !slices.Contains(t.Host, h) {
			add(false, KindHost, h, "", "")
		}
	}
	oldF := map[string]Fetch{}
	for _, f := range o.Fetch {
		oldF[f.Domain] = f
	}
	newF := map[string]bool{}
	for _, f := range t.Fetch {
		newF[f.Domain] = true
		of, ok := oldF[f.Domain]
		if !ok {
			add(true, KindFetch, f.Domain, "", "")
			continue
		}
		if f.MaxBytes != of.MaxBytes {
			add(f.MaxBytes > of.MaxBytes, KindMaxBytes, fmt.Sprint(f.MaxBytes), fmt.Sprint(of.MaxBytes), f.Domain)
		}
		if f.TimeoutMs != of.TimeoutMs {
			add(f.TimeoutMs > of.TimeoutMs, KindTimeoutMs, fmt.Sprint(f.TimeoutMs), fmt.Sprint(of.TimeoutMs), f.Domain)
		}
	}
	for _, f := range o.Fetch {
		if !newF[f.Domain] {
			add(false, KindFetch, f.Domain, "", "")
		}
	}
	oldC := map[string]Credential{}
	for _, c := range o.Credentials {
		oldC[c.Name] = c
	}
	newC := map[string]bool{}
	for _, c := range t.Credentials {
		newC[c.Name] = true
		oc, ok := oldC[c.Name]
		if !ok {
			add(true, KindCredential, c.Name, "", "")
			continue
		}
		if !strings.EqualFold(c.Header, oc.Header) {
			add(true, KindCredHeader, c.Header, oc.Header, c.Name)
		}
		for _, d := range c.SentTo {
			if !slices.Contains(oc.SentTo, d) {
				add(true, KindCredScope, d, "", c.Name)
			}
		}
		for _, d := range oc.SentTo {
			if !slices.Contains(c.SentTo, d) {
				add(false, KindCredScope, d, "", c.Name)
			}
		}
	}
	for _, c := range o.Credentials {
		if !newC[c.Name] {
			add(false, KindCredential, c.Name, "", "")
		}
	}
}

// Stale compares the pinned files with the current ones: the files
// changed, added and removed since the pin (sorted), and whether the
// source-tree hash differs.
func Stale(pinned, cur *Lock) (changed, added, removed []string, stale bool) {
	for rel, sum := range cur.Files {
		old, ok := pinned.Files[rel]
		switch {
		case !ok:
			added = append(added, rel)
		case old != sum:
			changed = append(changed, rel)
		}
	}
	for rel := range pinned.Files {
		if _, ok := cur.Files[rel]; !ok {
			removed = append(removed, rel)
		}
	}
	sort.Strings(changed)
	sort.Strings(added)
	sort.Strings(removed)
	return changed, added, removed, pinned.SourceTreeHash != cur.SourceTreeHash
}
