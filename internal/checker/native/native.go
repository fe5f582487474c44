// Package native reads a plugin's declared native tools as the full-trust
// lane's reach: each name with its module's hash, what the module's tools
// map says it requires and its approval gate, read statically
// (internal/js/jsmodule). It is apart from internal/checker/capability so
// that the reach of function tools (and the broker that enforces it) does
// not link the JavaScript front end.
package native

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// Approval levels of a native tool's needsApproval, from the highest gate
// to none. A lower level than the pinned one is a widening.
const (
	ApprovalAlways      = "always"      // true, or absent (the default)
	ApprovalConditional = "conditional" // a function of the call's arguments
	ApprovalUnknown     = "unknown"     // the definition cannot be read statically
	ApprovalNever       = "never"       // false
)

// ApprovalRank orders approval levels: higher means more gated.
func ApprovalRank(a string) int {
	switch a {
	case ApprovalAlways:
		return 3
	case ApprovalConditional:
		return 2
	case ApprovalUnknown:
		return 1
	}
	return 0
}

// ModuleHash is "sha256:<hex>" of a module's bytes: what Tool.ModuleHash
// and the editor's approval of a native run name.
func ModuleHash(text []byte) string {
	sum := sha256.Sum256(text)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Tool is one declared native tool name: the full-trust lane's reach is
// the module's bytes, what it says it requires and its approval gate.
type Tool struct {
	Name        string
	Module      string // as cleaned (slash path inside the plugin)
	ModuleHash  string // "sha256:<hex>" of the module file, "" when missing
	Description string
	// InputSchemaSource is the inputJsonSchema value as written in the
	// module ("" when absent).
	InputSchemaSource string
	Requires          []string
	// NeedsApproval is one of the Approval* levels.
	NeedsApproval string
	// Untrusted says why the definition read from the module's literal is
	// not what runs ("native/x.js:8: needsApproval: `send.needsApproval =
	// false` writes it"): code that may change it after the literal
	// (jsmodule.Mutation). NeedsApproval is then unknown and Requires ends in
	// "(not statically known)".
	Untrusted []string
	// InputSchema is the definition's inputJsonSchema as JSON data when the
	// module writes it as data (InputSchemaKnown); nil otherwise.
	InputSchema      any
	InputSchemaKnown bool
	// NameNode is the name in nativeTools[i].names; ModuleNode the module.
	NameNode, ModuleNode *jsonpos.Node
}

// NotKnown ends a requires list that cannot be read statically.
const NotKnown = "(not statically known)"

// maxUntrusted bounds the reasons kept per tool (the card shows them).
const maxUntrusted = 10

// untrusted lists the changes the module may make to the definition of
// tool in its tools map, where they are.
func untrusted(rel string, f *checker.File, mod *jsmodule.Module, tool string) []string {
	changes := mod.Changes(mod.Tools.Export)
	// Its own exports reached through an import of itself.
	for _, mu := range mod.Mutations {
		if mu.From != "" && mu.Name == mod.Tools.Export && path.Join(path.Dir(rel), mu.From) == rel {
			c := jsmodule.ToolChange{Mutation: mu}
			if len(mu.Path) > 0 {
				c.Tool = mu.Path[0]
			}
			if len(mu.Path) > 1 {
				c.Prop = mu.Path[1]
			}
			changes = append(changes, c)
		}
	}
	var out []string
	seen := map[jsmodule.Span]bool{}
	for _, c := range changes {
		if (c.Tool != tool && c.Tool != "*" && c.Tool != "") || seen[c.Span] {
			continue
		}
		seen[c.Span] = true
		what := c.Prop
		switch {
		case c.Tool == "":
			what = "the tools map"
		case what == "" || what == "*":
			what = "the definition"
		}
		if len(out) == maxUntrusted {
			out = append(out, "and more (plugin-lsp check lists them all)")
			break
		}
		out = append(out, fmt.Sprintf("%s:%d: %s: %s", rel, f.Position(c.Span.Start).Line+1, what, c.Reason))
	}
	return out
}

// Tools reads every declared native name with what its module says
// about it. Reading never fails: a missing or unreadable module leaves
// ModuleHash or the definition fields empty ("unknown" approval).
func Tools(p *checker.Plugin) []Tool {
	var out []Tool
	mods := map[string]*jsmodule.Module{}
	for _, nt := range p.Manifest.NativeTools {
		modStr, _ := checker.Str(nt.Module)
		rel, err := checker.Clean(modStr)
		var f *checker.File
		if err == nil {
			f, _ = p.ReadFile(rel)
		} else {
			rel = modStr
		}
		hash := ""
		var mod *jsmodule.Module
		if f != nil {
			hash = ModuleHash(f.Text)
			if mods[rel] == nil {
				mods[rel] = jsmodule.ReadExports(f.Text)
			}
			mod = mods[rel]
		}
		for _, n := range nt.Names {
			name, ok := checker.Str(n)
			if !ok {
				continue
			}
			nv := Tool{Name: name, Module: rel, ModuleHash: hash, NeedsApproval: ApprovalUnknown, NameNode: n, ModuleNode: nt.Module}
			if mod != nil && mod.Tools != nil {
				if e := mod.Tools.Lookup(name); e != nil && e.Def {
					nv.NeedsApproval = ApprovalAlways
					if a := e.NeedsApproval; a != nil {
						switch {
						case a.Kind == "boolean" && !a.Value:
							nv.NeedsApproval = ApprovalNever
						case a.Kind == "boolean":
						case a.Kind == "function":
							nv.NeedsApproval = ApprovalConditional
						default:
							nv.NeedsApproval = ApprovalUnknown
						}
					}
					for _, r := range e.Requires {
						nv.Requires = append(nv.Requires, r.Value)
					}
					if !e.RequiresKnown {
						nv.Requires = append(nv.Requires, NotKnown)
					}
					nv.Description = e.DescriptionText
					nv.InputSchema, nv.InputSchemaKnown = e.InputSchemaValue, e.InputSchemaStatic
					if sp := e.InputSchemaSpan; sp.End > sp.Start && sp.End <= len(f.Text) {
						nv.InputSchemaSource = string(f.Text[sp.Start:sp.End])
					}
				}
				if nv.Untrusted = untrusted(rel, f, mod, name); len(nv.Untrusted) > 0 {
					nv.NeedsApproval = ApprovalUnknown
				}
			}
			// What cannot be read is not "nothing": a definition that is
			// unknown requires what nobody read.
			if nv.NeedsApproval == ApprovalUnknown && (len(nv.Requires) == 0 || nv.Requires[len(nv.Requires)-1] != NotKnown) {
				nv.Requires = append(nv.Requires, NotKnown)
			}
			out = append(out, nv)
		}
	}
	return out
}
