package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// NativeReachAtRun reports a connection that the last run of a native tool
// (plugin-lsp run --trust-native, ▶ Run in the editor) opened and that the
// tool's requires does not grant.
var NativeReachAtRun = &checker.Rule{
	Code:     "native-reach-at-run",
	Severity: checker.Error,
	Title:    "the last run opened a connection its requires does not grant",
	Doc: "Learnt from running the native tool, not from reading it: the harness of `plugin-lsp run --trust-native` " +
		"records every outgoing connection the module opens (`connections` in the run record: `node:net`, `node:tls`, " +
		"`node:dgram`, `node:http(s)`, `fetch`, `WebSocket`). A connection whose protocol the tool's `requires` does " +
		"not grant (`network.socket` grants tcp, tls and udp; `network.http` http and https; `network.websocket` ws and " +
		"wss) is reported at the tool's definition in the module, whether the run refused it (fake providers refuse " +
		"every connection) or not. The reviewer approves `requires`; what the module reaches must be in it.\n\n" +
		"The language server feeds the rule the runs it made; `plugin-lsp check` has no runs, so it reports nothing there.",
	Lang:   "js",
	Before: "requires: [\"secrets.read\"],\nasync execute(args, ctx) {\n  const s = net.connect(6379, host); // run: tcp, not granted",
	After:  "requires: [\"secrets.read\", \"network.socket\"],\nasync execute(args, ctx) {\n  const s = net.connect(6379, host);",
	Fix:    "Add the capability to the tool's `requires` (the reviewer then sees the reach).",
	Run: func(pass *checker.Pass) {
		runs := pass.Config.Runs
		if len(runs) == 0 || pass.Plugin.Manifest.Root == nil {
			return
		}
		for _, m := range nativeModules(pass) {
			if !m.readable() {
				continue
			}
			tm := m.toolMap(pass)
			if tm == nil {
				continue
			}
			declared := m.declared()
			for _, t := range tm.Entries {
				run, ok := runs[t.Name]
				if !ok || !declared[t.Name] || len(run.Connections) == 0 || t.Def == nil || !t.Def.RequiresKnown {
					continue
				}
				var have []string
				for _, r := range t.Def.Requires {
					have = append(have, r.Value)
				}
				seen := map[string]bool{}
				for _, c := range run.Connections {
					need := NativeGrant(c.Protocol)
					if need == "" || slices.Contains(have, need) || seen[need] {
						continue
					}
					seen[need] = true
					how := "went through"
					if c.Refused != "" {
						how = "refused: " + c.Refused
					}
					msg := fmt.Sprintf("the last run of %s opened a %s connection to %s:%d (%s), which its requires does not grant: add %q",
						t.Name, c.Protocol, checker.Clip(c.Host, 200), c.Port, how, need)
					d := checker.Diagnostic{File: t.File, Span: t.KeySpan, Message: msg, Subject: need,
						Related: m.relatedTool(t.Name)}
					if f := addRequiresFix(pass, t, need); f != nil {
						d.Fixes = []checker.Fix{*f}
					}
					pass.Report(d)
				}
			}
		}
	},
}

// NativeGrant is the broker capability that grants a connection protocol
// of the native lane ("" for an unknown protocol).
func NativeGrant(protocol string) string {
	switch protocol {
	case "tcp", "tls", "udp":
		return "network.socket"
	case "http", "https":
		return "network.http"
	case "ws", "wss":
		return "network.websocket"
	}
	return ""
}

// addRequiresFix adds need to the definition's requires array, or adds a
// requires property to an object literal that has none.
func addRequiresFix(pass *checker.Pass, t effTool, need string) *checker.Fix {
	f, err := pass.Plugin.ReadFile(t.DefFile)
	if err != nil {
		return nil
	}
	text := string(f.Text)
	title := fmt.Sprintf("Add %q to the requires of %s", need, t.Name)
	rs := t.Def.RequiresSpan
	if rs.End > rs.Start && rs.End <= len(text) {
		arr := text[rs.Start:rs.End]
		if !strings.HasPrefix(arr, "[") || !strings.HasSuffix(arr, "]") {
			return nil
		}
		ins := fmt.Sprintf("%q", need)
		if strings.TrimSpace(arr[1:len(arr)-1]) != "" {
			inner := strings.TrimRight(arr[:len(arr)-1], " \t\r\n")
			if strings.HasSuffix(inner, ",") {
				ins = " " + ins
			} else {
				ins = ", " + ins
			}
			at := rs.Start + len(inner)
			return &checker.Fix{Title: title, Preferred: true, Edits: []checker.Edit{{File: t.DefFile, Span: checker.Span{Start: at, End: at}, NewText: ins}}}
		}
		return &checker.Fix{Title: title, Preferred: true, Edits: []checker.Edit{{File: t.DefFile, Span: checker.Span{Start: rs.Start + 1, End: rs.End - 1}, NewText: ins}}}
	}
	vs := t.Def.ValueSpan
	if vs.End > vs.Start && vs.End <= len(text) && text[vs.Start] != '{' {
		// a top-level const: its object literal
		name := text[vs.Start:vs.End]
		re, err := regexp.Compile(`(?m)^\s*(?:export\s+)?(?:const|let|var)\s+` + regexp.QuoteMeta(name) + `\s*=\s*(?:Object\.freeze\(\s*)?\{`)
		if err != nil {
			return nil
		}
		loc := re.FindStringIndex(text)
		if loc == nil {
			return nil
		}
		vs = checker.Span{Start: loc[1] - 1, End: loc[1]}
	}
	if vs.End > vs.Start && vs.End <= len(text) && text[vs.Start] == '{' {
		at := vs.Start + 1
		return &checker.Fix{Title: title, Preferred: true, Edits: []checker.Edit{{File: t.DefFile, Span: checker.Span{Start: at, End: at}, NewText: fmt.Sprintf(" requires: [%q],", need)}}}
	}
	return nil
}
