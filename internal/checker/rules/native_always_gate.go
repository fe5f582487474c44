package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
)

// NativeAlwaysGate reports a native module that claims gate authority it
// cannot have: `alwaysGate` anywhere in its code, or a needsApproval that
// names tools (an attempt to set another tool's gate).
var NativeAlwaysGate = &checker.Rule{
	Code:     "native-always-gate",
	Severity: checker.Error,
	Title:    "native module claims alwaysGate authority",
	Doc: "`needsApproval` defaults to true. A plugin may lift only its own gate, per tool: " +
		"`needsApproval: false`, or a function of the call's arguments. It can never claim `alwaysGate` " +
		"authority (forcing or lifting the gate of other tools, first-party ones included): the registry " +
		"ignores such a claim and the install review rejects it. Reported: an `alwaysGate` property in a " +
		"tool definition, any other mention of `alwaysGate` in the module's code, and a `needsApproval` " +
		"given as an object, array or string naming tools.",
	Lang:   "js",
	Before: "\"tg.readChat\": { description: \"…\", needsApproval: { \"web.fetch\": false }, alwaysGate: true, execute }",
	After:  "\"tg.readChat\": { description: \"…\", needsApproval: false, execute }",
	Run: func(pass *checker.Pass) {
		reported := map[fileSpan]bool{}
		for _, m := range nativeModules(pass) {
			if m.Mod == nil {
				continue
			}
			if tm := m.toolMap(pass); tm != nil {
				for _, t := range tm.Entries {
					def := t.Def
					if def == nil {
						continue
					}
					if s := def.AlwaysGateSpan; s != nil && !reported[fileSpan{t.DefFile, *s}] {
						reported[fileSpan{t.DefFile, *s}] = true
						pass.Report(checker.Diagnostic{File: t.DefFile, Span: *s,
							Message: fmt.Sprintf("tool %q claims alwaysGate authority: a plugin may lift only its own gate (needsApproval: false), never claim alwaysGate", t.Name),
							Related: m.relatedTool(t.Name)})
					}
					if a := def.NeedsApproval; a != nil && !reported[fileSpan{t.DefFile, a.ValueSpan}] {
						if msg := approvalProblem(t.Name, a); msg != "" {
							reported[fileSpan{t.DefFile, a.ValueSpan}] = true
							pass.Report(checker.Diagnostic{File: t.DefFile, Span: a.ValueSpan, Message: msg, Related: m.relatedTool(t.Name)})
						}
					}
				}
			}
			for _, s := range m.Mod.AlwaysGate {
				if reported[fileSpan{m.Rel, s}] {
					continue
				}
				reported[fileSpan{m.Rel, s}] = true
				pass.Report(checker.Diagnostic{File: m.Rel, Span: s,
					Message: m.Rel + " claims alwaysGate authority: only first-party tools are always gated; a plugin may lift only its own gate",
					Related: []checker.Related{m.declaredHere()}})
			}
		}
	},
}

// approvalProblem explains what is wrong with a needsApproval value, or
// returns "" for a boolean, a function or anything it cannot judge.
func approvalProblem(tool string, a *jsmodule.Approval) string {
	switch a.Kind {
	case "object", "array", "string":
	default:
		return ""
	}
	var others []string
	for _, n := range a.Names {
		if n.Value != tool {
			others = append(others, "`"+n.Value+"`")
		}
	}
	if len(others) > 0 {
		return fmt.Sprintf("needsApproval of %q names other tools (%s): a plugin may lift only its own gate; use true, false or a function of the call's arguments", tool, strings.Join(others, ", "))
	}
	return fmt.Sprintf("needsApproval of %q is a %s: it must be true, false or a function of the call's arguments (a plugin sets only its own tool's gate)", tool, a.Kind)
}
