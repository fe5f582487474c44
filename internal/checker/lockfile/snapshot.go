// Package snapshot is the pinned capability snapshot of a plugin,
// plugin.lock.json: what a reviewer approved (the source-tree hash, the
// plugin's provenance, per tool its reach from internal/checker/capability), and
// the drift between it and the plugin as it is now.
//
// The file is written by `plugin-lsp pin DIR` and the LSP command
// plugin.pin; its JSON Schema is lock.schema.json (docs/snapshot.md). Keys
// come out in a fixed order and lists in manifest order, so a diff of two
// snapshots reads like a diff of the reach. It never holds a secret value:
// credentials are recorded by name, header and the hosts they go to.
package lockfile

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/native"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// FileName is the snapshot's name beside plugin.json.
const FileName = "plugin.lock.json"

// LockVersion is the format written.
const LockVersion = 1

// SchemaJSON is the JSON Schema of plugin.lock.json.
//
//go:embed lock.schema.json
var SchemaJSON []byte

// Lock is plugin.lock.json. Field order is the file's key order.
type Lock struct {
	LockVersion    int               `json:"lockVersion"`
	WrittenBy      string            `json:"writtenBy"`
	Plugin         Provenance        `json:"plugin"`
	SourceTreeHash string            `json:"sourceTreeHash"`
	Files          map[string]string `json:"files"`
	FunctionTools  []FunctionTool    `json:"functionTools"`
	NativeTools    []NativeTool      `json:"nativeTools"`
	UnboundPages   []UnboundPage     `json:"unboundPages"`
}

// Provenance is capabilities.plugin: which plugin and version the
// capabilities come from.
type Provenance struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// FunctionTool is a sandboxed tool and its reach.
type FunctionTool struct {
	Name        string       `json:"name"`
	Page        string       `json:"page"`
	Host        []string     `json:"host"`
	Fetch       []Fetch      `json:"fetch"`
	Credentials []Credential `json:"credentials"`
	// TextHash pins the tool's agent-facing text (AgentText), Text holds
	// it (to show a change old beside new).
	TextHash string `json:"textHash,omitempty"`
	Text     string `json:"text,omitempty"`
}

// Fetch is a reachable host with its effective caps, as the lock and the
// review card record it.
type Fetch struct {
	Domain    string `json:"domain"`
	MaxBytes  int64  `json:"fetchMaxBytes"`
	TimeoutMs int64  `json:"fetchTimeoutMs"`
}

// FetchesOf is a reach's fetch domains with their effective caps.
func FetchesOf(r *capability.Reach) []Fetch {
	out := []Fetch{}
	for _, f := range r.Fetch {
		out = append(out, Fetch{Domain: f.Domain, MaxBytes: f.MaxBytes, TimeoutMs: f.TimeoutMs})
	}
	return out
}

// Credential is a brokered credential: never its value.
type Credential struct {
	Name     string   `json:"name"`
	Header   string   `json:"header"`
	SentTo   []string `json:"sentTo"`
	Unscoped bool     `json:"unscoped,omitempty"`
}

// NativeTool is one declared native name in the full-trust lane.
type NativeTool struct {
	Name          string   `json:"name"`
	Module        string   `json:"module"`
	ModuleHash    string   `json:"moduleHash"`
	Description   string   `json:"description,omitempty"`
	Requires      []string `json:"requires"`
	NeedsApproval string   `json:"needsApproval"`
	// TextHash and Text: the tool's agent-facing text (NativeAgentText).
	TextHash string `json:"textHash,omitempty"`
	Text     string `json:"text,omitempty"`
}

// UnboundPage is a page under code/ that no tool binds. Run alone it has
// the minimal grant (no host method, no network, no credential), whatever
// the manifest's capabilities say.
type UnboundPage struct {
	Page  string `json:"page"`
	Grant string `json:"grant"` // "minimal"
}

// UnboundPages are the plugin's pages that no tool binds, each with the
// minimal grant.
func UnboundPages(p *checker.Plugin) []UnboundPage {
	out := []UnboundPage{}
	for _, pg := range capability.UnboundPages(p) {
		out = append(out, UnboundPage{Page: pg, Grant: "minimal"})
	}
	return out
}

// Build takes the snapshot of a loaded plugin as it is now. writtenBy is
// "plugin-lsp <version>". Files are read through the plugin's FS (an
// editor's unsaved buffers count); the tree must hold no symlink.
func Build(p *checker.Plugin, writtenBy string) (*Lock, error) {
	files, hash, err := Files(p)
	if err != nil {
		return nil, err
	}
	l := Reach(p)
	l.WrittenBy = writtenBy
	l.Files, l.SourceTreeHash = files, hash
	return l, nil
}

// Files hashes the plugin's files (all but plugin.lock.json) through its
// FS: each file's "sha256:<hex>" by slash path, and the source-tree hash.
func Files(p *checker.Plugin) (map[string]string, string, error) {
	sums, err := TreeFiles(p.Dir, p.FS.ReadFile, func(rel string) bool { return rel == FileName })
	if err != nil {
		return nil, "", err
	}
	files := make(map[string]string, len(sums))
	for rel, sum := range sums {
		files[rel] = "sha256:" + sum
	}
	return files, "sha256:" + HashLines(SumLines(sums)), nil
}

// Reach is the snapshot without the file hashes: the plugin's provenance
// and every tool's reach (what drift compares).
func Reach(p *checker.Plugin) *Lock {
	m := p.Manifest
	l := &Lock{LockVersion: LockVersion, Files: map[string]string{},
		FunctionTools: []FunctionTool{}, NativeTools: []NativeTool{}, UnboundPages: []UnboundPage{}}
	l.Plugin.Name, _ = checker.Str(m.Name)
	l.Plugin.Version, _ = checker.Str(m.Version)
	reach := capability.FromManifest(m)
	for _, t := range capability.FunctionTools(p) {
		ft := toolReach(t.Name, t.Page, reach)
		text := checker.ToolAgentText(t.Tool)
		ft.TextHash, ft.Text = TextHash(text), checker.Elide(text, MaxPinnedText)
		l.FunctionTools = append(l.FunctionTools, ft)
	}
	for _, n := range native.Tools(p) {
		req := n.Requires
		if req == nil {
			req = []string{}
		}
		nt := NativeTool{Name: n.Name, Module: n.Module, ModuleHash: n.ModuleHash,
			Description: n.Description, Requires: req, NeedsApproval: n.NeedsApproval}
		text := checker.NativeAgentText(n.Description, n.InputSchemaSource)
		nt.TextHash, nt.Text = TextHash(text), checker.Elide(text, MaxPinnedText)
		l.NativeTools = append(l.NativeTools, nt)
	}
	l.UnboundPages = UnboundPages(p)
	return l
}

func toolReach(name, page string, r *capability.Reach) FunctionTool {
	t := FunctionTool{Name: name, Page: page, Host: append([]string{}, r.Host...), Fetch: FetchesOf(r), Credentials: []Credential{}}
	for _, c := range r.Credentials {
		if c.Broken != "" {
			continue // never injected: no reach
		}
		t.Credentials = append(t.Credentials, Credential{Name: c.Name, Header: c.Header, SentTo: r.SentTo(c), Unscoped: c.Unscoped})
	}
	return t
}

// Marshal renders the lock as the file holds it: two-space indent, keys
// in the fixed order, a final newline.
func (l *Lock) Marshal() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		panic(err) // plain structs: cannot fail
	}
	return b.Bytes()
}

// Parse reads a plugin.lock.json, checked against its schema. A key
// written twice anywhere is refused with both positions
// (*jsonpos.DuplicateKeyError): a lock must say one thing.
func Parse(data []byte) (*Lock, error) {
	if err := jsonpos.CheckDuplicatesIn(data); err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if err := validate(doc); err != nil {
		return nil, err
	}
	var l Lock
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, err
	}
	return &l, nil
}
