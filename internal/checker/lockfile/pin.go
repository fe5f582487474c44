package lockfile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// PinResult is what Pin did.
type PinResult struct {
	Lock *Lock
	// Previous is the snapshot that was replaced (nil: none, or it was
	// not a snapshot); Changes are the reach changes since it.
	Previous *Lock
	Changes  []Change
	// Problems counts the malformed capability entries (they grant
	// nothing, so the snapshot does not hold them).
	Problems int
}

// Pin writes the snapshot of the plugin to plugin.lock.json in its
// directory through checker.WritePluginFile (atomically: a temporary
// file renamed over the old one; a symlinked or hard-linked lock file is
// refused).
func Pin(p *checker.Plugin, writtenBy string) (*PinResult, error) {
	return PinReviewed(p, writtenBy, "")
}

// ErrChangedSinceReview is PinReviewed's error when the plugin's files are
// no longer those of the review card the author approved.
var ErrChangedSinceReview = errors.New("the plugin changed on disk since its review card was shown: nothing was pinned; review it again")

// PinReviewed is Pin of what was reviewed: when reviewed is not "" (the
// snapshot's source-tree hash when the card was shown, from Files), the
// snapshot is written only if the files hash the same now, so an approval
// pins the bytes it was given for.
func PinReviewed(p *checker.Plugin, writtenBy, reviewed string) (*PinResult, error) {
	if e := p.SyntaxError; e != nil {
		pos := p.ManifestFile.Position(e.Offset)
		return nil, fmt.Errorf("%s:%d:%d: %s: a manifest that does not parse cannot be pinned", checker.ManifestName, pos.Line+1, pos.Col+1, e.Message)
	}
	if err := jsonpos.CheckDuplicates(p.ManifestFile.Text, p.Manifest.Root); err != nil {
		// The snapshot would pin one reading of a manifest that says two things.
		return nil, fmt.Errorf("%s:%v: a manifest with a key written twice cannot be pinned", checker.ManifestName, err)
	}
	l, err := Build(p, writtenBy)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot hash the source tree: %w", p.Dir, err)
	}
	if reviewed != "" && l.SourceTreeHash != reviewed {
		return nil, ErrChangedSinceReview
	}
	res := &PinResult{Lock: l, Problems: len(capability.FromManifest(p.Manifest).Problems)}
	if old, err := checker.ReadPluginFile(checker.OSFS{}, p.Dir, FileName); err == nil {
		if prev, err := Parse(old); err == nil {
			res.Previous = prev
			res.Changes = Diff(prev, l)
		}
	}
	if err := checker.WritePluginFile(p.Dir, FileName, l.Marshal()); err != nil {
		return nil, err
	}
	return res, nil
}

// Text is Pin's report for a terminal.
func (r *PinResult) Text(path string) string {
	var b strings.Builder
	name := r.Lock.Plugin.Name
	if name == "" {
		name = "(unnamed plugin)"
	}
	v := text.Visible
	fmt.Fprintf(&b, "pinned %s %s (%s, %d function tools, %d native tools) to %s\n", v(name), v(r.Lock.Plugin.Version),
		v(r.Lock.SourceTreeHash), len(r.Lock.FunctionTools), len(r.Lock.NativeTools), v(path))
	switch {
	case r.Previous == nil:
		b.WriteString("first snapshot\n")
	case len(r.Changes) == 0:
		b.WriteString("the reach is the same as in the previous snapshot\n")
	default:
		b.WriteString("since the previous snapshot:\n")
		for _, c := range r.Changes {
			fmt.Fprintf(&b, "  %s\n", v(c.Line()))
		}
	}
	return b.String()
}
