package ide

import (
	"fmt"
	"os"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// ActionKind is a code action's kind, spelled as LSP spells it.
type ActionKind string

// The kinds of the actions offered.
const (
	QuickFix     ActionKind = "quickfix"
	Source       ActionKind = "source"
	SourceFixAll ActionKind = "source.fixAll"
)

// Action is one code action: edits to apply, or a command to run.
type Action struct {
	Title       string
	Kind        ActionKind
	Diagnostics []*checker.Diagnostic // the diagnostics it resolves
	Edits       []checker.Edit        // nil when it runs Command
	Preferred   bool
	Command     *Command
}

// ActionRequest is what a code action request asks: a range of a file,
// the kinds the client accepts, and what the slow actions need.
type ActionRequest struct {
	File string
	Span checker.Span
	// Allow reports whether the client accepts kind (its "only" filter);
	// nil accepts every kind.
	Allow func(ActionKind) bool
	// Recheck checks the plugin again with another manifest, for "add
	// all missing capabilities" when single fixes conflict; nil merges
	// without checking.
	Recheck Recheck
	// FixAll, when set (the client asked for source.fixAll by its name),
	// is how `plugin-lsp check --fix` is run on the editor's text.
	FixAll *fixes.Options
	// Tests are the cases of File when it is a test file.
	Tests []TestCase
}

// AllowKinds is the client's "only" filter of code actions: a kind is
// accepted when only names it or a kind it refines ("source" accepts
// "source.fixAll", not "sourceX"); nil (every kind) when only is empty.
func AllowKinds[K ~string](only []K) func(ActionKind) bool {
	if len(only) == 0 {
		return nil
	}
	return func(k ActionKind) bool {
		for _, o := range only {
			if string(k) == string(o) || strings.HasPrefix(string(k), string(o)+".") {
				return true
			}
		}
		return false
	}
}

// Explicitly reports whether only names kind itself (VS Code's
// codeActionsOnSave "source.fixAll", a "Fix all" command): fix-all
// re-checks the plugin once per fix, so it is computed only when asked
// for by its name, not for unfiltered or plain "source" requests.
func Explicitly[K ~string](only []K, kind ActionKind) bool {
	for _, o := range only {
		if string(o) == string(kind) {
			return true
		}
	}
	return false
}

// PinCodes are the drift diagnostics plugin.pin clears: their fix is the
// command (which shows the review card first), not the rule's edit.
var PinCodes = map[string]bool{"snapshot-widened": true, "snapshot-narrowed": true, "snapshot-stale": true, "snapshot-text-changed": true}

// PinLabel is the title of the re-pin quick fix and of its confirmation.
const PinLabel = "Re-pin the capability snapshot"

// CodeActions answers a code action request, in the order shown: the
// fixes of every diagnostic in the range (quick fixes, also when the edit
// is in another file; re-pin for lock drift), "add all missing
// capabilities" of a page, accepting a snapshot case's new result, fix-all,
// creating a missing page or module from a template, generating types.
func (vw *View) CodeActions(req ActionRequest) []Action {
	if vw.Plugin == nil {
		return nil
	}
	allow := func(k ActionKind) bool { return req.Allow == nil || req.Allow(k) }
	var out []Action
	created := map[string]bool{}
	if allow(QuickFix) {
		out = append(out, vw.fixActions(req, created)...)
		out = append(out, acceptActions(req)...)
	}
	if req.FixAll != nil {
		if a := fixAllAction(vw.Plugin.Dir, *req.FixAll); a != nil {
			out = append(out, *a)
		}
	}
	if allow(Source) && req.File == checker.ManifestName {
		out = append(out, vw.createActions(created)...)
	}
	if allow(Source) {
		out = append(out, vw.typesActions(req.File)...)
	}
	return out
}

// fixActions are the quick fixes of the diagnostics in the range, then
// all missing capabilities of a page at once (only worth it when the page
// needs more than one). created collects the files a fix creates.
func (vw *View) fixActions(req ActionRequest, created map[string]bool) []Action {
	var out []Action
	var capDiags []*checker.Diagnostic
	for i := range vw.Diags {
		d := &vw.Diags[i]
		if d.File != req.File || !Overlaps(d.Span, req.Span) {
			continue
		}
		if IsCapabilityCode(d.Code) && len(d.Fixes) > 0 {
			capDiags = append(capDiags, d)
		}
		if PinCodes[d.Code] {
			out = append(out, Action{Title: PinLabel, Kind: QuickFix, Diagnostics: []*checker.Diagnostic{d},
				Command: &Command{Title: PinLabel, Name: CommandPin, File: checker.ManifestName}})
			continue
		}
		for j, fx := range d.Fixes {
			for _, e := range fx.Edits {
				if e.Create {
					created[e.File] = true
				}
			}
			out = append(out, Action{
				Title:       text.Visible(fx.Title), // titles quote the plugin: its controls shown
				Kind:        QuickFix,
				Diagnostics: []*checker.Diagnostic{d},
				Edits:       fx.Edits,
				Preferred:   d.PreferredFix() == &d.Fixes[j],
			})
		}
	}
	if req.File != checker.ManifestName {
		if n, manifest := vw.AddAllCapabilities(req.File, req.Recheck); n > 1 {
			out = append(out, Action{
				Title:       text.Visible(fmt.Sprintf("Add all %d missing capabilities of %s to plugin.json", n, req.File)),
				Kind:        QuickFix,
				Diagnostics: capDiags,
				Edits:       []checker.Edit{vw.AddAllEdit(manifest)},
			})
		}
	}
	return out
}

// acceptActions offer "Accept the new result as snapshot" on a failing
// snapshot case, in the range, whose tool returned.
func acceptActions(req ActionRequest) []Action {
	var out []Action
	for _, c := range req.Tests {
		r := c.Result
		if !c.Case.Snapshot || r == nil || r.Status != testcase.Fail || r.Record == nil || !r.Record.OK || !Overlaps(c.Case.Span, req.Span) {
			continue
		}
		const title = "Accept the new result as snapshot"
		out = append(out, Action{Title: title, Kind: QuickFix, Preferred: true,
			Command: &Command{Title: title, Name: CommandAcceptSnapshot, File: req.File, Case: c.Case.Name}})
	}
	return out
}

// fixAllAction is what `plugin-lsp check --fix` would apply to the
// editor's text (every preferred, safe fix, each re-checked); nil when
// there is nothing to fix.
func fixAllAction(dir string, o fixes.Options) *Action {
	n, edits, err := FixAll(dir, o)
	if err != nil || n == 0 {
		return nil
	}
	title := "Apply the preferred fix"
	if n > 1 {
		title = fmt.Sprintf("Apply all %d preferred fixes", n)
	}
	return &Action{Title: text.Visible(title + " (plugin-lsp check --fix)"), Kind: SourceFixAll, Edits: edits}
}

// typesActions offer "Generate types" where the plugin has no
// .plugin/types.d.ts yet: on plugin.json and on its pages.
func (vw *View) typesActions(rel string) []Action {
	if !(rel == checker.ManifestName || strings.HasSuffix(rel, ".ts")) {
		return nil
	}
	if _, err := os.Lstat(vw.Plugin.Abs(tstypes.TypesPath)); err == nil {
		return nil
	}
	return []Action{{
		Title:   "Generate types (.plugin/types.d.ts and tsconfig.json) for the host API and tool inputs",
		Kind:    Source,
		Command: &Command{Title: "Generate types", Name: CommandGenerateTypes, Dir: true},
	}}
}

// Overlaps reports whether span a meets the requested range want (a
// cursor when want is empty).
func Overlaps(a, want checker.Span) bool {
	if want.Start == want.End {
		return a.Start <= want.Start && want.Start <= a.End
	}
	return a.Start < want.End && want.Start < a.End || a.Start == a.End && want.Start <= a.Start && a.Start <= want.End
}
