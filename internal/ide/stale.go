package ide

import (
	"crypto/sha256"
	"slices"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Basis is what a tool's run ran against: the digest of each file it read
// that an author edits, so a lens can tell a result that no longer stands
// for the text on screen (the ✗ of a refused fetch after the quick fix
// added the domain) from one that still does.
//
// Files the page imports are not in it: a change there does not mark the
// run stale.
type Basis struct {
	files    [3]basisFile // manifest, page, fixtures
	recorded bool
}

type basisFile struct {
	name string
	sum  [sha256.Size]byte
	read bool // the file was there and readable
}

// BasisOf is the basis of a run of tool on p now: its manifest, its page
// and the plugin's fixtures, as p holds them (unsaved editor text
// included).
func BasisOf(p *checker.Plugin, tool string) Basis {
	b := Basis{recorded: true}
	if p == nil {
		return b
	}
	page := "" // the tool's page, plugin-relative, when it resolves to one
	if t := p.Manifest.FunctionTool(tool); t != nil {
		if pg, ok := checker.Str(t.Page); ok {
			if rel, found := p.ResolvePage(pg); found {
				page = rel
			}
		}
	}
	if nt, ok := NativeOf(p, tool); ok && page == "" {
		page = nt.Module // a native tool's run depends on its module
	}
	for i, rel := range [3]string{checker.ManifestName, page, checker.FixturesName} {
		b.files[i].name = rel
		if rel == "" {
			continue
		}
		if f, err := p.ReadFile(rel); err == nil && f != nil {
			b.files[i].sum, b.files[i].read = sha256.Sum256(f.Text), true
		}
	}
	return b
}

// With is b with the digest of file rel (one of b's files) taken from
// text: what the run itself wrote (a recording run's fixtures) is no
// change since it.
func (b Basis) With(rel string, text []byte) Basis {
	for i := range b.files {
		if b.files[i].name == rel {
			b.files[i].sum, b.files[i].read = sha256.Sum256(text), true
		}
	}
	return b
}

// Changed lists the files (plugin-relative) that differ between the basis
// a run had and now, in the order manifest, page, fixtures; nil when none
// did or when the run recorded no basis.
func (b Basis) Changed(now Basis) []string {
	if !b.recorded || !now.recorded {
		return nil
	}
	var out []string
	for i, was := range b.files {
		is := now.files[i]
		if was.name != is.name || was.read != is.read || was.sum != is.sum {
			name := is.name
			if name == "" {
				name = was.name
			}
			out = append(out, name)
		}
	}
	return out
}

// Stale lists what changed since tool's last run (Basis.Changed against
// the view's plugin); nil when nothing did or there is no run.
func (vw *View) Stale(tool string) []string {
	run := vw.Runs[tool]
	if run == nil || vw.Plugin == nil {
		return nil
	}
	return run.Basis.Changed(BasisOf(vw.Plugin, tool))
}

// RunLens is the title of a tool's lens after a run: its outcome and the
// offer to run again; when a file changed since (changed, from Stale), the
// offer comes first and the outcome is said to be past:
// "⟳ Run again (plugin.json changed since: ✗ Error: fetch refused: …)".
func RunLens(run *Run, changed []string) string {
	if len(changed) == 0 {
		return Summary(run) + " · ▶ Run again"
	}
	return "⟳ Run again (" + since(run, changed) + ")"
}

// RunHint is the inlay hint of a tool's last run: its outcome, marked as
// past when a file changed since.
func RunHint(run *Run, changed []string) string {
	if len(changed) == 0 {
		return Summary(run)
	}
	return "⟳ " + since(run, changed)
}

func since(run *Run, changed []string) string {
	return strings.Join(changed, ", ") + " changed since: " + Summary(run)
}

// StaleKey names the stale runs and what changed since each, e.g.
// "lookupBook:plugin.json;": when it changes, the client is asked for
// lenses and inlay hints again.
func (vw *View) StaleKey() string {
	if vw.Plugin == nil || len(vw.Runs) == 0 {
		return ""
	}
	tools := make([]string, 0, len(vw.Runs))
	for t := range vw.Runs {
		tools = append(tools, t)
	}
	slices.Sort(tools)
	var b strings.Builder
	for _, t := range tools {
		if ch := vw.Stale(t); len(ch) > 0 {
			b.WriteString(t + ":" + strings.Join(ch, ",") + ";")
		}
	}
	return b.String()
}
