package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
)

// NativeUnknownRequires reports a broker capability in a tool definition's
// requires list that the host broker does not offer.
var NativeUnknownRequires = &checker.Rule{
	Code:     "native-unknown-requires",
	Severity: checker.Error,
	Title:    "unknown broker capability in requires",
	Doc: "A native tool's `requires` lists the broker capabilities that gate its reach; the host grants " +
		"only capabilities it knows, so a misspelt or invented one leaves the tool without the reach it " +
		"expects (or the install refused). The catalogue is documented in docs/broker-capabilities.md: " +
		"secrets.read, network.socket, network.websocket, network.http, storage.kv, collections.read, " +
		"collections.write, notify.user, clock.",
	Lang:   "js",
	Before: "requires: [\"secrets.read\", \"network.tcp\"]",
	After:  "requires: [\"secrets.read\", \"network.socket\"]",
	Run: func(pass *checker.Pass) {
		var known []string
		isKnown := map[string]bool{}
		for _, c := range jsmodule.BrokerCapabilities() {
			known = append(known, c.Name)
			isKnown[c.Name] = true
		}
		reported := map[fileSpan]bool{}
		for _, m := range nativeModules(pass) {
			if !m.readable() {
				continue
			}
			tm := m.toolMap(pass)
			if tm == nil {
				continue
			}
			for _, t := range tm.Entries {
				if t.Def == nil {
					continue
				}
				for _, r := range t.Def.Requires {
					at := fileSpan{t.DefFile, r.Span}
					if isKnown[r.Value] || reported[at] {
						continue
					}
					reported[at] = true
					hint := didYouMean(r.Value, known)
					if hint == "" {
						hint = " (known: " + strings.Join(known, ", ") + ")"
					}
					pass.Report(checker.Diagnostic{File: t.DefFile, Span: r.Span,
						Message: fmt.Sprintf("unknown broker capability %q in requires of %q%s", r.Value, t.Name, hint),
						Related: m.relatedTool(t.Name)})
				}
			}
		}
	},
}
