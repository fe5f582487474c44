// Package review builds the install review card of a plugin: what the
// installer shows before a person approves it, pinned to the bytes of the
// version directory by its source-tree hash.
//
// The source-tree hash the card is pinned to is lockfile.TreeHash.
package review

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/native"
)

// Card is the install review card.
type Card struct {
	Plugin        string         `json:"plugin"`
	Version       string         `json:"version"`
	Description   string         `json:"description,omitempty"`
	Hash          string         `json:"sourceTreeHash"` // "sha256:<hex>"
	FunctionTools []FunctionTool `json:"functionTools"`
	NativeTools   []NativeTool   `json:"nativeTools"`
	// UnboundPages are pages under code/ no tool binds: the minimal grant.
	UnboundPages []lockfile.UnboundPage `json:"unboundPages"`
	// SincePinned is what changed since plugin.lock.json (set by
	// AnnotateCard; nil when not compared).
	SincePinned *SincePinned `json:"sincePinned,omitempty"`
	// Problems are errors that make the manifest unreadable in part
	// (a syntax error): the card may be incomplete.
	Problems []string `json:"problems,omitempty"`
}

// FunctionTool is one sandboxed tool and its reach. A tool inherits
// exactly its plugin's declared capabilities, so every function tool of a
// plugin has the same reach; the card repeats it per tool because that is
// what the approver decides on.
type FunctionTool struct {
	Name        string           `json:"name"`       // as declared
	Registered  string           `json:"registered"` // fn.<name>
	Page        string           `json:"page"`
	Description string           `json:"description,omitempty"`
	Host        []string         `json:"host"`
	Fetch       []lockfile.Fetch `json:"fetch"`
	Credentials []CredReach      `json:"credentials"`
	// AgentText is what the agent reads of the tool, line by line.
	AgentText []AgentLine `json:"agentText,omitempty"`
}

// CredReach is one brokered credential: its name, the header it lands in,
// and the domains it is sent to (all fetch domains when unscoped).
type CredReach struct {
	Name     string   `json:"name"`
	Header   string   `json:"header"`
	Domains  []string `json:"domains"`
	Unscoped bool     `json:"unscoped,omitempty"`
	// Broken says why the credential is never injected (a malformed
	// entry); Domains is then empty.
	Broken string `json:"broken,omitempty"`
}

// NativeTool is one declared native name with what its module says about
// it: what the approver of the full-trust lane decides on.
type NativeTool struct {
	Name        string `json:"name"`
	Module      string `json:"module"`
	Line        string `json:"line"` // native tool <name> (<module>) in the full-trust lane
	Description string `json:"description,omitempty"`
	// Requires are the broker capabilities the tool asks for.
	Requires []string `json:"requires"`
	// NeedsApproval: always (the default), conditional (a function of the
	// arguments), never (false), unknown (not statically readable).
	NeedsApproval string `json:"needsApproval"`
	ModuleHash    string `json:"moduleHash,omitempty"` // sha256:<hex> of the module file
	// Untrusted says why the module's literal is not what runs: code that
	// may change the definition after it (native-tools-mutated). Requires
	// and NeedsApproval then say what is not known.
	Untrusted []string `json:"untrusted,omitempty"`
	// AgentText is what the agent reads of the tool, line by line.
	AgentText []AgentLine `json:"agentText,omitempty"`
}

// Build builds the card of a loaded plugin with the source-tree hash of
// its directory on disk (unsaved editor buffers are not what gets
// installed). When the tree cannot be hashed (a symlink, a FIFO) the card
// is returned without Hash, with the error.
func Build(p *checker.Plugin) (*Card, error) {
	c := FromPlugin(p)
	hash, err := lockfile.TreeHash(p.Dir)
	if err != nil {
		return c, err
	}
	c.Hash = "sha256:" + hash
	return c, nil
}

// FromPlugin builds the card of a loaded plugin, without the hash.
func FromPlugin(p *checker.Plugin) *Card {
	m := p.Manifest
	c := &Card{FunctionTools: []FunctionTool{}, NativeTools: []NativeTool{}}
	c.Plugin, _ = checker.Str(m.Name)
	c.Version, _ = checker.Str(m.Version)
	if m.Root != nil {
		c.Description, _ = checker.Str(m.Root.Get("description"))
	}
	if e := p.SyntaxError; e != nil {
		pos := p.ManifestFile.Position(e.Offset)
		c.Problems = append(c.Problems, fmt.Sprintf("plugin.json:%d:%d: %s (the card shows what parsed before it)", pos.Line+1, pos.Col+1, e.Message))
	}
	// The reach every function tool inherits: the capability model's
	// (a malformed entry grants nothing and is not on the card).
	reach := capability.FromManifest(m)
	host := append([]string{}, reach.Host...)
	fetch := lockfile.FetchesOf(reach)
	creds := []CredReach{}
	for _, cr := range reach.Credentials {
		creds = append(creds, CredReach{Name: cr.Name, Header: cr.Header, Domains: reach.SentTo(cr),
			Unscoped: cr.Unscoped && cr.Broken == "", Broken: cr.Broken})
	}
	for _, t := range capability.FunctionTools(p) {
		c.FunctionTools = append(c.FunctionTools, FunctionTool{
			Name: t.Name, Registered: checker.ReservedPrefix + t.Name, Page: t.Page, Description: t.Description,
			Host: host, Fetch: fetch, Credentials: creds, AgentText: agentLines(checker.ToolAgentText(t.Tool)),
		})
	}
	for _, n := range native.Tools(p) {
		req := n.Requires
		if req == nil {
			req = []string{}
		}
		c.NativeTools = append(c.NativeTools, NativeTool{
			Name: n.Name, Module: n.Module,
			Line:        fmt.Sprintf("native tool %s (%s) in the full-trust lane", n.Name, n.Module),
			Description: n.Description, Requires: req, NeedsApproval: n.NeedsApproval, ModuleHash: n.ModuleHash,
			Untrusted: n.Untrusted, AgentText: agentLines(checker.NativeAgentText(n.Description, n.InputSchemaSource)),
		})
	}
	c.UnboundPages = lockfile.UnboundPages(p)
	return c
}
