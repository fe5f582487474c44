package checker

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/suggest"
)

// FunctionTool returns the function tool (tools[]) named name, or nil.
func (m *Manifest) FunctionTool(name string) *Tool {
	for _, t := range m.Tools {
		if s, ok := Str(t.Name); ok && s == name {
			return t
		}
	}
	return nil
}

// WhyNotRunnable explains why name is not a function tool of the
// manifest, for `plugin-lsp run` and the plugin.runTool command: a native
// tool is in the full-trust lane (run by the host, never by the sandbox,
// and previewed by its review card), a registered name "fn.x" is the tool
// x, a near miss gets a did-you-mean. It returns "" when name is a
// function tool.
func WhyNotRunnable(m *Manifest, name string) string {
	var tools []string
	for _, t := range m.Tools {
		if s, ok := Str(t.Name); ok {
			if s == name {
				return ""
			}
			tools = append(tools, s)
		}
	}
	list := "it has no function tools"
	if len(tools) > 0 {
		list = "its function tools are " + strings.Join(tools, ", ")
	}
	for _, nt := range m.NativeTools {
		mod, _ := Str(nt.Module)
		for _, n := range nt.Names {
			if s, ok := Str(n); ok && s == name {
				return fmt.Sprintf("%q is a native tool (%s) in the full-trust lane: native modules run in the host with real authority, "+
					"never in the sandbox, so they cannot be run here; the review card (plugin-lsp review, or the plugin.reviewCard command) "+
					"shows what it declares and may reach. Only function tools run in the sandbox: %s", name, mod, list)
			}
		}
	}
	if rest, ok := strings.CutPrefix(name, ReservedPrefix); ok {
		for _, t := range tools {
			if t == rest {
				return fmt.Sprintf("%q is how the agent sees the function tool %q: run it by its manifest name %q", name, rest, rest)
			}
		}
	}
	msg := fmt.Sprintf("no function tool %q in this plugin", name)
	if s := suggest.Closest(name, tools); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg + "; " + list
}
