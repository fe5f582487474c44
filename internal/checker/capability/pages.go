package capability

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// FunctionTool is one declared function tool: its name, the page it
// binds (the file it resolves to when that exists, as written otherwise)
// and its description.
type FunctionTool struct {
	Name, Page, Description string
	Tool                    *checker.Tool // the manifest entry (its agent-facing text: checker.ToolAgentText)
}

// FunctionTools lists the manifest's function tools that have a name, in
// manifest order: what the lock and the review card record per tool.
func FunctionTools(p *checker.Plugin) []FunctionTool {
	var out []FunctionTool
	for _, t := range p.Manifest.Tools {
		name, ok := checker.Str(t.Name)
		if !ok {
			continue
		}
		page, _ := checker.Str(t.Page)
		if rel, found := p.ResolvePage(page); found {
			page = rel
		}
		desc, _ := checker.Str(t.Description)
		out = append(out, FunctionTool{Name: name, Page: page, Description: desc, Tool: t})
	}
	return out
}

// UnboundPages lists the pages (.ts, .js, not .d.ts) under code/ that no
// tool of the manifest binds, sorted. Such a page is a bare function: it
// keeps the minimal grant whatever the manifest's capabilities say.
func UnboundPages(p *checker.Plugin) []string {
	bound := map[string]bool{}
	for _, t := range p.Manifest.Tools {
		if s, ok := checker.Str(t.Page); ok {
			if rel, found := p.ResolvePage(s); found {
				bound[rel] = true
			}
		}
	}
	var out []string
	_ = filepath.WalkDir(p.Abs("code"), func(fp string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if ext := path.Ext(d.Name()); ext != ".ts" && ext != ".js" || strings.HasSuffix(d.Name(), ".d.ts") {
			return nil
		}
		if rel, ok := p.Rel(fp); ok && !bound[rel] {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// ReachOfPage is the reach a page runs with: the plugin's when a tool
// binds it, the minimal grant otherwise.
func ReachOfPage(p *checker.Plugin, rel string) *Reach {
	for _, t := range p.Manifest.Tools {
		if s, ok := checker.Str(t.Page); ok {
			if r, found := p.ResolvePage(s); found && r == rel {
				return FromManifest(p.Manifest)
			}
		}
	}
	return Minimal()
}
