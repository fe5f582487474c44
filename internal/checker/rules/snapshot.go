package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/native"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// repinHint ends every drift message.
const repinHint = "review it and re-pin (plugin-lsp pin, or the quick fix \"Re-pin the capability snapshot\")"

// pinned is the plugin's snapshot and how the reach moved since.
type pinned struct {
	File    *checker.File  // plugin.lock.json; nil when there is none
	Lock    *lockfile.Lock // nil when missing or unreadable
	Err     error          // why the file is not a snapshot
	Now     *lockfile.Lock // the reach now (no file hashes)
	Changes []lockfile.Change
}

// loadPinned reads plugin.lock.json and diffs it with the reach now,
// once per content of the manifest, the snapshot and the native modules.
func loadPinned(pass *checker.Pass) *pinned {
	p := pass.Plugin
	f, err := p.ReadFile(lockfile.FileName)
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
		if s, ok := checker.Str(nt.Module); ok {
			if rel, err := checker.Clean(s); err == nil {
				if mf, err := p.ReadFile(rel); err == nil {
					key = append(key, 0)
					key = append(key, mf.Text...)
				}
			}
		}
	}
	// The tools' pages resolve against the disk: part of the key.
	for _, t := range p.Manifest.Tools {
		if s, ok := checker.Str(t.Page); ok {
			rel, _ := p.ResolvePage(s)
			key = append(key, 0)
			key = append(key, rel...)
		}
	}
	return pass.Cache.Memo("snapshot-drift", key, func() any {
		pn := &pinned{File: f}
		pn.Lock, pn.Err = lockfile.Parse(f.Text)
		if pn.Err != nil {
			return pn
		}
		pn.Now = lockfile.Reach(p)
		pn.Changes = lockfile.Diff(pn.Lock, pn.Now)
		return pn
	}).(*pinned)
}

// changePlace is where a change sits in plugin.json: the entry that
// widened (or, for what is gone, the list it was in).
func changePlace(p *checker.Plugin, c lockfile.Change) *jsonpos.Node {
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
	nativeTool := func(name string) *native.Tool {
		for _, n := range native.Tools(p) {
			if n.Name == name {
				return &n
			}
		}
		return nil
	}
	var at *jsonpos.Node
	switch c.Kind {
	case lockfile.KindTool:
		for _, t := range m.Tools {
			if s, _ := checker.Str(t.Name); "fn."+s == c.Value {
				at = t.Name
			}
		}
		at = firstOf(at, m.ToolsNode)
	case lockfile.KindHost:
		for _, h := range m.Host {
			if s, _ := checker.Str(h); s == c.Value {
				at = h
			}
		}
		at = firstOf(at, m.HostNode)
	case lockfile.KindFetch, lockfile.KindMaxBytes, lockfile.KindTimeoutMs:
		host := c.Value
		if c.Kind != lockfile.KindFetch {
			host = c.Subject
		}
		if f, ok := reach.FetchFor(host); ok {
			at = f.Node
			if c.Kind != lockfile.KindFetch {
				at = firstOf(f.Node.Get(c.Kind), f.Node)
			}
		}
		at = firstOf(at, m.FetchNode)
	case lockfile.KindCredential, lockfile.KindCredScope, lockfile.KindCredHeader:
		name := c.Value
		if c.Kind != lockfile.KindCredential {
			name = c.Subject
		}
		if cr := cred(name); cr != nil {
			at = firstOf(cr.Node.Get("name"), cr.Node)
			switch c.Kind {
			case lockfile.KindCredHeader:
				at = firstOf(cr.Node.Get("into").Get("header"), at)
			case lockfile.KindCredScope:
				for _, d := range cr.Node.Get("domains").Children() {
					if s, _ := checker.Str(d); normalized(s) == c.Value {
						at = d
					}
				}
			}
		}
		at = firstOf(at, m.CredentialsNode)
	case lockfile.KindNative, lockfile.KindNeedsApproval, lockfile.KindRequires:
		if n := nativeTool(c.Tools[0]); n != nil {
			at = n.NameNode
		}
		at = firstOf(at, m.NativeToolsNode)
	case lockfile.KindNativeModule:
		if n := nativeTool(c.Tools[0]); n != nil {
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
func pinnedOf(l *lockfile.Lock, c lockfile.Change) string {
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
	case lockfile.KindTool:
		for _, t := range l.FunctionTools {
			add("fn." + t.Name)
		}
	case lockfile.KindNative:
		for _, n := range l.NativeTools {
			add(n.Name)
		}
	default:
		if c.Pinned != "" {
			return c.Pinned
		}
		for _, t := range l.FunctionTools {
			switch c.Kind {
			case lockfile.KindHost:
				for _, h := range t.Host {
					add(h)
				}
			case lockfile.KindFetch:
				for _, f := range t.Fetch {
					add(f.Domain)
				}
			case lockfile.KindCredential:
				for _, cr := range t.Credentials {
					add(cr.Name)
				}
			case lockfile.KindCredScope:
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
			if c.Kind == lockfile.KindRequires && len(c.Tools) > 0 && n.Name == c.Tools[0] {
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
func lockProblem(pass *checker.Pass, pn *pinned) {
	var dup *jsonpos.DuplicateKeyError
	if errors.As(pn.Err, &dup) {
		return // json-duplicate-key reports it, an error with both positions
	}
	d := checker.Diagnostic{File: checker.ManifestName,
		Message: fmt.Sprintf("%s is not a capability snapshot (%v): drift cannot be checked; re-pin it (plugin-lsp pin)", lockfile.FileName, pn.Err)}
	if pn.File != nil {
		d.File = lockfile.FileName
	}
	if pass.Config.RequireSnapshot {
		d.Severity = checker.Error
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
