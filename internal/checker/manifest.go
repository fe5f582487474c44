package checker

import "github.com/plugin-lsp/plugin-lsp/internal/jsonpos"

// Manifest is a typed view over the parsed plugin.json. It is built from
// whatever parsed, so every field may be nil or hold a node of the wrong
// JSON type: the manifest-schema rule reports type errors, the other rules
// look only at nodes of the type they expect (use Str to read a string).
type Manifest struct {
	Root    *jsonpos.Node // nil when the file holds no JSON value at all
	Name    *jsonpos.Node
	Version *jsonpos.Node
	SDK     *jsonpos.Node

	ToolsNode       *jsonpos.Node // the "tools" array
	Tools           []*Tool
	NativeToolsNode *jsonpos.Node // the "nativeTools" array
	NativeTools     []*NativeTool

	CapabilitiesNode *jsonpos.Node
	HostNode         *jsonpos.Node // capabilities.host
	Host             []*jsonpos.Node
	FetchNode        *jsonpos.Node // capabilities.fetch
	Fetch            []*FetchCap
	CredentialsNode  *jsonpos.Node // capabilities.credentials
	Credentials      []*Credential
}

// Tool is one entry of "tools": a function tool bound to a page.
type Tool struct {
	Node        *jsonpos.Node
	Name        *jsonpos.Node
	Page        *jsonpos.Node
	Description *jsonpos.Node
	InputSchema *jsonpos.Node // inputJsonSchema
}

// NativeTool is one entry of "nativeTools".
type NativeTool struct {
	Node   *jsonpos.Node
	Module *jsonpos.Node
	Names  []*jsonpos.Node
}

// FetchCap is one entry of capabilities.fetch: a bare domain string or an
// object with a domain and limits. Domain is the string node in both cases.
type FetchCap struct {
	Node      *jsonpos.Node
	Domain    *jsonpos.Node
	MaxBytes  *jsonpos.Node // fetchMaxBytes
	TimeoutMs *jsonpos.Node // fetchTimeoutMs
}

// Credential is one entry of capabilities.credentials.
type Credential struct {
	Node    *jsonpos.Node
	Name    *jsonpos.Node
	Into    *jsonpos.Node
	Header  *jsonpos.Node // into.header
	Format  *jsonpos.Node // into.format
	Domains []*jsonpos.Node
}

// Limits of capabilities.fetch entries.
const (
	DefaultFetchMaxBytes  = 1 << 20
	MaxFetchMaxBytes      = 16 << 20
	DefaultFetchTimeoutMs = 10_000
	MaxFetchTimeoutMs     = 60_000
)

// Str returns the string value of n and whether n is a string node.
func Str(n *jsonpos.Node) (string, bool) {
	if n == nil || n.Kind != jsonpos.String {
		return "", false
	}
	return n.Str, true
}

// NewManifest builds the typed view of a parsed manifest.
func NewManifest(root *jsonpos.Node) *Manifest {
	m := &Manifest{Root: root}
	if root == nil || root.Kind != jsonpos.Object {
		return m
	}
	m.Name = root.Get("name")
	m.Version = root.Get("version")
	m.SDK = root.Get("sdk")
	m.ToolsNode = root.Get("tools")
	for _, e := range arrayElems(m.ToolsNode) {
		m.Tools = append(m.Tools, &Tool{
			Node: e, Name: e.Get("name"), Page: e.Get("page"),
			Description: e.Get("description"), InputSchema: e.Get("inputJsonSchema"),
		})
	}
	m.NativeToolsNode = root.Get("nativeTools")
	for _, e := range arrayElems(m.NativeToolsNode) {
		m.NativeTools = append(m.NativeTools, &NativeTool{
			Node: e, Module: e.Get("module"), Names: arrayElems(e.Get("names")),
		})
	}
	caps := root.Get("capabilities")
	m.CapabilitiesNode = caps
	m.HostNode = caps.Get("host")
	m.Host = arrayElems(m.HostNode)
	m.FetchNode = caps.Get("fetch")
	for _, e := range arrayElems(m.FetchNode) {
		fc := &FetchCap{Node: e}
		if e.Kind == jsonpos.Object {
			fc.Domain = e.Get("domain")
			fc.MaxBytes = e.Get("fetchMaxBytes")
			fc.TimeoutMs = e.Get("fetchTimeoutMs")
		} else {
			fc.Domain = e
		}
		m.Fetch = append(m.Fetch, fc)
	}
	m.CredentialsNode = caps.Get("credentials")
	for _, e := range arrayElems(m.CredentialsNode) {
		into := e.Get("into")
		m.Credentials = append(m.Credentials, &Credential{
			Node: e, Name: e.Get("name"), Into: into,
			Header: into.Get("header"), Format: into.Get("format"),
			Domains: arrayElems(e.Get("domains")),
		})
	}
	return m
}

// arrayElems returns the elements of an array node, or nil for anything
// else (including an object where an array was expected).
func arrayElems(n *jsonpos.Node) []*jsonpos.Node {
	if n == nil || n.Kind != jsonpos.Array {
		return nil
	}
	return n.Elems
}

// SpanOf returns the byte span of a node's value, or of the key when the
// value is missing (a truncated document), or an empty span at 0.
func SpanOf(n *jsonpos.Node) Span {
	if n == nil {
		return Span{}
	}
	if n.Kind == jsonpos.Invalid && n.KeySpan.End > n.KeySpan.Start {
		return n.KeySpan
	}
	return n.Span
}

// KeySpanOf returns the span of a member's key (with quotes), or its value
// span when it has no key.
func KeySpanOf(n *jsonpos.Node) Span {
	if n == nil {
		return Span{}
	}
	if n.KeySpan.End > n.KeySpan.Start {
		return n.KeySpan
	}
	return n.Span
}
