package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/capability"
	"github.com/plugin-lsp/plugin-lsp/analysis/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/analysis/snapshot"
)

// repinHint ends every drift message.
const repinHint = "review it and re-pin (plugin-lsp pin, or the quick fix \"Re-pin the capability snapshot\")"

// pinned is the plugin's snapshot and how the reach moved since.
type pinned struct {
	File    *analysis.File // plugin.lock.json; nil when there is none
	Lock    *snapshot.Lock // nil when missing or unreadable
	Err     error          // why the file is not a snapshot
	Now     *snapshot.Lock // the reach now (no file hashes)
	Changes []snapshot.Change
}

// loadPinned reads plugin.lock.json and diffs it with the reach now,
// once per content of the manifest, the snapshot and the native modules.
func loadPinned(pass *analysis.Pass) *pinned {
	p := pass.Plugin
	f, err := p.ReadFile(snapshot.FileName)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &pinned{}
		}
		return &pinned{Err: err}
	}
	key := append([]byte{}, f.Text...)
	key = append(key, 0)
	if p.ManifestFile != nil {
		key = append(key, p.ManifestFile.Text...)
	}
	for _, nt := range p.Manifest.NativeTools {
		if s, ok := analysis.Str(nt.Module); ok {
			if rel, err := analysis.Clean(s); err == nil {
				if mf, err := p.ReadFile(rel); err == nil {
					key = append(key, 0)
					key = append(key, mf.Text...)
				}
			}
		}
	}
	// The tools' pages resolve against the disk: part of the key.
	for _, t := range p.Manifest.Tools {
		if s, ok := analysis.Str(t.Page); ok {
			rel, _ := p.ResolvePage(s)
			key = append(key, 0)
			key = append(key, rel...)
		}
	}
	return pass.Cache.Memo("snapshot-drift", key, func() any {
		pn := &pinned{File: f}
		pn.Lock, pn.Err = snapshot.Parse(f.Text)
		if pn.Err != nil {
			return pn
		}
		pn.Now = snapshot.Reach(p)
		pn.Changes = snapshot.Diff(pn.Lock, pn.Now)
		return pn
	}).(*pinned)
}

// changePlace is where a change sits in plugin.json: the entry that
// widened (or, for what is gone, the list it was in).
func changePlace(p *analysis.Plugin, c snapshot.Change) *jsonpos.Node {
	m := p.Manifest
	reach := capability.FromManifest(m)
	cred := func(name string) *capability.Credential {
		for i := range reach.Credentials {
			if reach.Credentials[i].Name == name {
				return &reach.Credentials[i]
			}
		}
		return nil
	}
	native := func(name string) *capability.Native {
		for _, n := range capability.Natives(p) {
			if n.Name == name {
				return &n
			}
		}
		return nil
	}
	var at *jsonpos.Node
	switch c.Kind {
	case snapshot.KindTool:
		for _, t := range m.Tools {
			if s, _ := analysis.Str(t.Name); "fn."+s == c.Value {
				at = t.Name
			}
		}
		at = firstOf(at, m.ToolsNode)
	case snapshot.KindHost:
		for _, h := range m.Host {
			if s, _ := analysis.Str(h); s == c.Value {
				at = h
			}
		}
		at = firstOf(at, m.HostNode)
	case snapshot.KindFetch, snapshot.KindMaxBytes, snapshot.KindTimeoutMs:
		host := c.Value
		if c.Kind != snapshot.KindFetch {
			host = c.Subject
		}
		if f, ok := reach.FetchFor(host); ok {
			at = f.Node
			if c.Kind != snapshot.KindFetch {
				at = firstOf(f.Node.Get(c.Kind), f.Node)
			}
		}
		at = firstOf(at, m.FetchNode)
	case snapshot.KindCredential, snapshot.KindCredScope, snapshot.KindCredHeader:
		name := c.Value
		if c.Kind != snapshot.KindCredential {
			name = c.Subject
		}
		if cr := cred(name); cr != nil {
			at = firstOf(cr.Node.Get("name"), cr.Node)
			switch c.Kind {
			case snapshot.KindCredHeader:
				at = firstOf(cr.Node.Get("into").Get("header"), at)
			case snapshot.KindCredScope:
				for _, d := range cr.Node.Get("domains").Children() {
					if s, _ := analysis.Str(d); normalized(s) == c.Value {
						at = d
					}
				}
			}
		}
		at = firstOf(at, m.CredentialsNode)
	case snapshot.KindNative, snapshot.KindNeedsApproval, snapshot.KindRequires:
		if n := native(c.Tools[0]); n != nil {
			at = n.NameNode
		}
		at = firstOf(at, m.NativeToolsNode)
	case snapshot.KindNativeModule:
		if n := native(c.Tools[0]); n != nil {
			at = n.ModuleNode
		}
		at = firstOf(at, m.NativeToolsNode)
	}
	return firstOf(at, m.CapabilitiesNode, m.Root)
}

func firstOf(ns ...*jsonpos.Node) *jsonpos.Node {
	for _, n := range ns {
		if n != nil {
			return n
		}
	}
	return nil
}

// pinnedOf says what the snapshot holds of a change's kind, for messages.
func pinnedOf(l *snapshot.Lock, c snapshot.Change) string {
	var vals []string
	add := func(v string) {
		for _, x := range vals {
			if x == v {
				return
			}
		}
		vals = append(vals, v)
	}
	switch c.Kind {
	case snapshot.KindTool:
		for _, t := range l.FunctionTools {
			add("fn." + t.Name)
		}
	case snapshot.KindNative:
		for _, n := range l.NativeTools {
			add(n.Name)
		}
	default:
		if c.Pinned != "" {
			return c.Pinned
		}
		for _, t := range l.FunctionTools {
			switch c.Kind {
			case snapshot.KindHost:
				for _, h := range t.Host {
					add(h)
				}
			case snapshot.KindFetch:
				for _, f := range t.Fetch {
					add(f.Domain)
				}
			case snapshot.KindCredential:
				for _, cr := range t.Credentials {
					add(cr.Name)
				}
			case snapshot.KindCredScope:
				for _, cr := range t.Credentials {
					if cr.Name == c.Subject {
						for _, d := range cr.SentTo {
							add(d)
						}
					}
				}
			}
		}
		for _, n := range l.NativeTools {
			if c.Kind == snapshot.KindRequires && len(c.Tools) > 0 && n.Name == c.Tools[0] {
				for _, r := range n.Requires {
					add(r)
				}
			}
		}
	}
	if len(vals) == 0 {
		return "none"
	}
	return strings.Join(vals, ", ")
}

// lockProblem reports a snapshot that cannot be read.
func lockProblem(pass *analysis.Pass, pn *pinned) {
	var dup *jsonpos.DuplicateKeyError
	if errors.As(pn.Err, &dup) {
		return // json-duplicate-key reports it, an error with both positions
	}
	d := analysis.Diagnostic{File: analysis.ManifestName,
		Message: fmt.Sprintf("%s is not a capability snapshot (%v): drift cannot be checked; re-pin it (plugin-lsp pin)", snapshot.FileName, pn.Err)}
	if pn.File != nil {
		d.File = snapshot.FileName
	}
	if pass.Config.RequireSnapshot {
		d.Severity = analysis.Error
	}
	pass.Report(d)
}

func normalized(domain string) string {
	k, r := fetchurl.NormalizeDomain(domain)
	if r != nil {
		return ""
	}
	return k
}

func jsonposParse(b []byte) (*jsonpos.Node, *jsonpos.SyntaxError) { return jsonpos.Parse(b) }
