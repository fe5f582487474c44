package review

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/capability"
)

// UnboundPage is a page under code/ that no tool binds. Run alone it has
// the minimal grant (no host method, no network, no credential), whatever
// the manifest's capabilities say.
type UnboundPage struct {
	Page  string `json:"page"`
	Grant string `json:"grant"` // "minimal"
}

// SincePinned is the card's section "since the pinned snapshot".
type SincePinned struct {
	// Snapshot is the pinned source-tree hash; Missing is set when the
	// plugin has no plugin.lock.json, Problem when it cannot be read.
	Snapshot string `json:"snapshot,omitempty"`
	Missing  bool   `json:"missing,omitempty"`
	Problem  string `json:"problem,omitempty"`
	// Changes are lines like "+ api.x.org (fetch, tool searchBooks)".
	Changes []string `json:"changes"`
	// Files changed, added or removed since the pin.
	Files []string `json:"files,omitempty"`
}

func unboundPages(p *analysis.Plugin) []UnboundPage {
	out := []UnboundPage{}
	for _, pg := range capability.UnboundPages(p) {
		out = append(out, UnboundPage{Page: pg, Grant: "minimal"})
	}
	return out
}

func writeNativeDetails(b *bytes.Buffer, n NativeTool) {
	if len(n.Untrusted) > 0 {
		b.WriteString("    DECLARED TOOLS CANNOT BE TRUSTED: the module may change this definition after its literal, so what it says below is not what runs:\n")
		for _, u := range n.Untrusted {
			fmt.Fprintf(b, "      %s\n", u)
		}
	}
	if n.Description != "" {
		fmt.Fprintf(b, "    description: %s\n", n.Description)
	}
	if len(n.Requires) == 0 {
		b.WriteString("    requires: nothing\n")
	} else {
		fmt.Fprintf(b, "    requires: %s\n", strings.Join(n.Requires, ", "))
	}
	fmt.Fprintf(b, "    needsApproval: %s\n", n.NeedsApproval)
	if n.ModuleHash != "" {
		fmt.Fprintf(b, "    module hash: %s\n", n.ModuleHash)
	}
}

func writeUnboundAndPinned(b *bytes.Buffer, c *Card) {
	if len(c.UnboundPages) > 0 {
		fmt.Fprintf(b, "\nPages no tool binds (%d): run alone, each keeps the minimal grant (no host method, no network):\n", len(c.UnboundPages))
		for _, pg := range c.UnboundPages {
			fmt.Fprintf(b, "  %s\n", pg.Page)
		}
	}
	sp := c.SincePinned
	if sp == nil {
		return
	}
	switch {
	case sp.Missing:
		b.WriteString("\nNo pinned snapshot (plugin.lock.json): everything above is new. Pin it with plugin-lsp pin.\n")
		return
	case sp.Problem != "":
		fmt.Fprintf(b, "\nThe pinned snapshot cannot be read: %s\n", sp.Problem)
		return
	}
	fmt.Fprintf(b, "\nSince the pinned snapshot (%s):\n", sp.Snapshot)
	if len(sp.Changes) == 0 {
		b.WriteString("  the reach is unchanged\n")
	}
	for _, l := range sp.Changes {
		fmt.Fprintf(b, "  %s\n", l)
	}
	if len(sp.Files) > 0 {
		fmt.Fprintf(b, "  files: %s\n", strings.Join(sp.Files, ", "))
	}
}
