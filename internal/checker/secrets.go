package checker

import (
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

// minSecretLen is the shortest dev secret hidden in messages: shorter
// values ("1", "ab") would mangle ordinary words. The scrubber matches a
// value in any case and through any escape, and searches its base64 and
// hex forms only from 6 bytes on (shorter ones would match unrelated
// base64 text), so a secret of 4 or 5 bytes is hidden as it is and
// escaped, not encoded.
const minSecretLen = 4

// secretScrubber is the scrubber of fixtures.json's "secrets" (the one
// the broker uses for what a run shows, internal/scrub), each value
// replaced by ••••(name); nil when there are none.
func secretScrubber(root *jsonpos.Node) *scrub.Scrubber {
	secrets := root.Get("secrets")
	if secrets == nil || secrets.Kind != jsonpos.Object {
		return nil
	}
	var ss []scrub.Secret
	for _, m := range secrets.Members {
		if v, ok := Str(m); ok && len(v) >= minSecretLen {
			ss = append(ss, scrub.Secret{Name: m.Key, Value: v})
		}
	}
	return scrub.New(ss...)
}

// redactSecrets hides the dev secrets of fixtures.json in what check and
// the editor print: messages, related messages and fix titles (a page
// URL holding a secret, percent-encoded or in base64 as often as not, is
// quoted in a message). Edits keep their text: they change the files,
// where the secret already is.
func redactSecrets(p *Plugin, diags []Diagnostic) {
	if p == nil || p.FixturesRoot == nil {
		return
	}
	s := secretScrubber(p.FixturesRoot)
	if s == nil {
		return
	}
	for i := range diags {
		d := &diags[i]
		d.Message = s.Text(d.Message)
		for j := range d.Related {
			d.Related[j].Message = s.Text(d.Related[j].Message)
		}
		for j := range d.Fixes {
			d.Fixes[j].Title = s.Text(d.Fixes[j].Title)
		}
	}
}
