// Package fixes applies the fixes the rules offer: one fix's edits across
// several files, and "fix all" (check --fix), which applies every
// preferred, safe fix one at a time, re-checking the plugin after each and
// keeping a fix only when it brings no new error. It also prints the
// change as a unified diff (check --diff). It knows nothing of LSP.
package fixes

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// ApplyText applies non-overlapping edits of one file to text. Edits are
// sorted first; overlapping or out-of-range edits fail.
func ApplyText(text []byte, edits []checker.Edit) ([]byte, error) {
	es := append([]checker.Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
	out := make([]byte, 0, len(text))
	at := 0
	for _, e := range es {
		if e.Span.Start < at || e.Span.End > len(text) || e.Span.Start > e.Span.End {
			return nil, fmt.Errorf("edit %d-%d of %s overlaps another or leaves the file", e.Span.Start, e.Span.End, e.File)
		}
		out = append(out, text[at:e.Span.Start]...)
		out = append(out, e.NewText...)
		at = e.Span.End
	}
	return append(out, text[at:]...), nil
}

// Apply applies a fix's edits to the plugin's files (as p read them) and
// returns each changed or created file's new text by plugin-relative
// path. A Create edit of a file that exists fails, as does an edit of a
// file that cannot be read.
func Apply(p *checker.Plugin, edits []checker.Edit) (map[string][]byte, error) {
	byFile := map[string][]checker.Edit{}
	var order []string
	for _, e := range edits {
		if _, ok := byFile[e.File]; !ok {
			order = append(order, e.File)
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	out := map[string][]byte{}
	for _, rel := range order {
		es := byFile[rel]
		if _, err := checker.Clean(rel); err != nil {
			return nil, err
		}
		if es[0].Create {
			if len(es) != 1 {
				return nil, fmt.Errorf("%s: a created file takes one edit", rel)
			}
			if p.Exists(rel) {
				return nil, fmt.Errorf("%s exists: not overwriting it", rel)
			}
			out[rel] = []byte(es[0].NewText)
			continue
		}
		f := fileOf(p, rel)
		if f == nil {
			return nil, fmt.Errorf("%s cannot be read", rel)
		}
		t, err := ApplyText(f.Text, es)
		if err != nil {
			return nil, err
		}
		out[rel] = t
	}
	return out, nil
}

func fileOf(p *checker.Plugin, rel string) *checker.File { return p.File(rel) }

// Change is one fix that FixAll applied (or refused).
type Change struct {
	Code  string   // the diagnostic's code
	File  string   // where the diagnostic was
	Line  int      // its 1-based line, before the fix
	Title string   // the fix's title
	Files []string // the files the fix edited or created
	// Why is set on a refused fix: the error it would have brought, or
	// the writer's refusal of one of its files.
	Why string
	// Unwritable: the writer refused one of its files (a symlink on the
	// way, "..", a FIFO…, see checker.WritePluginFile).
	Unwritable bool
}

// Result is what FixAll did: Before and After hold the text of every file
// it changed (Before is nil for a created file), by plugin-relative path.
type Result struct {
	Applied []Change
	Refused []Change
	Before  map[string][]byte
	After   map[string][]byte
	// Diags are the diagnostics of the fixed plugin.
	Diags []checker.Diagnostic
}

// Options configure FixAll; Rules is required.
type Options struct {
	Rules  []*checker.Rule
	Config *checker.Config
	Cache  *checker.Cache
	FS     checker.FS // nil: the disk
	// MaxFixes bounds the rounds (default 200).
	MaxFixes int
}

// FixAll checks the plugin in dir and applies, one at a time, the
// preferred fix of each error or warning when that fix is safe (it adds or
// renames, never removes a capability or code). After each fix the plugin
// is checked again, through an in-memory overlay: a fix that would bring
// an error the plugin did not have is refused and undone. Info
// diagnostics describe what is allowed (an export left unregistered on
// purpose), so their fixes are the author's call. Nothing is written:
// Result.After holds the new texts (see Write).
func FixAll(dir string, o Options) (*Result, error) {
	if o.MaxFixes == 0 {
		o.MaxFixes = 200
	}
	if o.Cache == nil {
		o.Cache = checker.NewCache()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	res := &Result{Before: map[string][]byte{}, After: map[string][]byte{}}
	overlay := map[string][]byte{} // abs path → text
	check := func() (*checker.Plugin, []checker.Diagnostic, error) {
		files := make(map[string][]byte, len(overlay))
		for k, v := range overlay {
			files[k] = v
		}
		p, err := checker.Load(&checker.Overlay{Files: files, Base: o.FS}, abs)
		if err != nil {
			return nil, nil, err
		}
		return p, checker.Run(p, o.Rules, o.Config, o.Cache), nil
	}
	p, diags, err := check()
	if err != nil {
		return nil, err
	}
	tried := map[string]bool{}
	for round := 0; round < o.MaxFixes; round++ {
		d, fx := next(diags, tried)
		if fx == nil {
			break
		}
		key := d.Code + "\x00" + fx.Title
		tried[key] = true
		ch := Change{Code: d.Code, File: d.File, Title: fx.Title}
		if f := fileOf(p, d.File); f != nil {
			ch.Line = f.Position(d.Span.Start).Line + 1
		}
		changed, err := Apply(p, fx.Edits)
		if err == nil {
			if err = writable(abs, changed); err != nil {
				ch.Unwritable = true
			}
		}
		if err != nil {
			ch.Why = err.Error()
			res.Refused = append(res.Refused, ch)
			continue
		}
		saved := map[string][]byte{}
		for rel, text := range changed {
			a := p.Abs(rel)
			if old, ok := overlay[a]; ok {
				saved[a] = old
			} else {
				saved[a] = nil
			}
			overlay[a] = text
			ch.Files = append(ch.Files, rel)
		}
		sort.Strings(ch.Files)
		np, nd, err := check()
		if err == nil {
			if e := newError(diags, nd); e != nil {
				err = fmt.Errorf("it would bring %s: %s", e.Code, e.Message)
			}
		}
		if err != nil {
			for a, old := range saved {
				if old == nil {
					delete(overlay, a)
				} else {
					overlay[a] = old
				}
			}
			ch.Why = err.Error()
			res.Refused = append(res.Refused, ch)
			continue
		}
		for rel := range changed {
			if _, ok := res.Before[rel]; !ok {
				if f := fileOf(p, rel); f != nil && p.Exists(rel) {
					res.Before[rel] = f.Text
				} else {
					res.Before[rel] = nil
				}
			}
			res.After[rel] = changed[rel]
		}
		res.Applied = append(res.Applied, ch)
		p, diags = np, nd
	}
	res.Diags = diags
	return res, nil
}

// next returns the first diagnostic (in output order) whose preferred fix
// FixAll may apply and has not tried.
func next(diags []checker.Diagnostic, tried map[string]bool) (*checker.Diagnostic, *checker.Fix) {
	for i := range diags {
		d := &diags[i]
		if d.Severity != checker.Error && d.Severity != checker.Warning {
			continue
		}
		fx := d.PreferredFix()
		if fx == nil || !fx.Safe() || tried[d.Code+"\x00"+fx.Title] {
			continue
		}
		return d, fx
	}
	return nil, nil
}

// newError returns an error of after in a file and code where after has
// more errors than before: a fix may change an error's words (a tool's
// message lists the hosts still missing) or its position, but must not
// add one.
func newError(before, after []checker.Diagnostic) *checker.Diagnostic {
	had := map[string]int{}
	for _, d := range before {
		if d.Severity == checker.Error {
			had[d.File+"\x00"+d.Code]++
		}
	}
	for i, d := range after {
		if d.Severity != checker.Error {
			continue
		}
		k := d.File + "\x00" + d.Code
		if had[k] == 0 {
			return &after[i]
		}
		had[k]--
	}
	return nil
}

// writable refuses a fix with a file the writer would refuse (a page to
// create under a symlinked code/, a symlinked plugin.json): such a fix is
// reported as not fixed, and no later fix builds on it.
func writable(dir string, changed map[string][]byte) error {
	rels := make([]string, 0, len(changed))
	for rel := range changed {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		if err := checker.CheckPluginWrite(dir, rel); err != nil {
			return err
		}
	}
	return nil
}

// Write writes the files of a result into dir through
// checker.WritePluginFile (created files with their directories, each
// through a temporary file renamed into place). A fix is written whole or
// not at all: FixAll already refused the fixes whose files the writer
// refuses, and when the writer still refuses one here (the folder changed
// since), every fix with that file moves from Applied to Refused with the
// refusal as its Why, as does every fix sharing a file with one of those
// (the file's new text holds both); their files are not written and leave
// Before and After. Files already written when a refusal comes late stay
// written, and the fix's Why says so. Write returns the first error that
// is not a refusal; res then says what was written before it.
func Write(dir string, res *Result) error {
	refused := map[string]error{} // file → why
	for rel := range res.After {
		if err := checker.CheckPluginWrite(dir, rel); err != nil {
			refused[rel] = err
		}
	}
	settle(res, refused, nil)
	var written []string
	for _, rel := range sortedFiles(res.After) {
		err := checker.WritePluginFile(dir, rel, res.After[rel])
		if errors.Is(err, checker.ErrRefused) {
			refused[rel] = err
			settle(res, refused, written)
			continue
		}
		if err != nil {
			return err
		}
		written = append(written, rel)
	}
	return nil
}

// settle moves every applied fix that touches a refused file to Refused,
// refusing its other files too, until no applied fix touches one; the
// refused files (not yet written) leave Before and After.
func settle(res *Result, refused map[string]error, written []string) {
	for moved := true; moved; {
		moved = false
		kept := res.Applied[:0]
		for _, ch := range res.Applied {
			var why error
			for _, f := range ch.Files {
				if refused[f] != nil {
					why = refused[f]
					break
				}
			}
			if why == nil {
				kept = append(kept, ch)
				continue
			}
			ch.Why, ch.Unwritable = why.Error(), true
			var done []string
			for _, f := range ch.Files {
				if slices.Contains(written, f) {
					done = append(done, f)
				}
				if refused[f] == nil {
					refused[f] = fmt.Errorf("%s: not written: it shares a file with a refused fix", f)
					moved = true
				}
			}
			if len(done) > 0 {
				ch.Why += " (already written: " + strings.Join(done, ", ") + ")"
			}
			res.Refused = append(res.Refused, ch)
		}
		res.Applied = kept
	}
	for f := range refused {
		if !slices.Contains(written, f) {
			delete(res.After, f)
			delete(res.Before, f)
		}
	}
}

func sortedFiles(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
