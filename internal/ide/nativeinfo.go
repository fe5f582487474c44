package ide

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	checkernative "github.com/plugin-lsp/plugin-lsp/internal/checker/native"
)

// CommandNativeTool answers what the editor's run panel shows of a native
// tool before it runs (NativeInfoOf): its description and inputJsonSchema
// live in the module, which only the server reads.
const CommandNativeTool = "plugin.nativeTool"

// NativeToolInfo is a declared native tool as its run panel shows it, read
// from the module by internal/checker/native (the one reader of native
// modules: the editor parses none).
type NativeToolInfo struct {
	Name        string `json:"name"`
	Module      string `json:"module"`
	ModuleHash  string `json:"moduleHash"` // "" when the module cannot be read
	Description string `json:"description"`
	// InputJSONSchema is the definition's inputJsonSchema when the module
	// writes it as data; absent when it has none or computes it
	// (InputSchemaKnown false).
	InputJSONSchema  any      `json:"inputJsonSchema,omitempty"`
	InputSchemaKnown bool     `json:"inputSchemaKnown"`
	Requires         []string `json:"requires"`
	NeedsApproval    string   `json:"needsApproval"` // one of checkernative.Approval*
}

// NativeInfoOf returns the declared native tool named tool as its module
// says (the last declaration wins, as NativeOf); ok false when tool is not
// a runnable native tool.
func NativeInfoOf(p *checker.Plugin, tool string) (NativeToolInfo, bool) {
	if _, ok := NativeOf(p, tool); !ok {
		return NativeToolInfo{}, false
	}
	var out NativeToolInfo
	for _, n := range checkernative.Tools(p) {
		if n.Name != tool {
			continue
		}
		out = NativeToolInfo{
			Name: n.Name, Module: n.Module, ModuleHash: n.ModuleHash, Description: n.Description,
			InputSchemaKnown: n.InputSchemaKnown, Requires: n.Requires, NeedsApproval: n.NeedsApproval,
		}
		if n.InputSchemaKnown {
			out.InputJSONSchema = n.InputSchema
		}
		if out.Requires == nil {
			out.Requires = []string{}
		}
	}
	return out, true
}

// NotNative is the failure of plugin.nativeTool on a tool of the plugin in
// dir that is not a declared native tool.
func NotNative(dir, tool string) *Failure {
	return failf(FailInvalid, "plugin %s: %s is not a declared native tool", dir, tool)
}
