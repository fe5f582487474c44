package rules

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// ToolRunEndless reports a function tool that exploration ran with an
// input it never finished with: the run spent its whole budget of work.
var ToolRunEndless = &checker.Rule{
	Code:     "tool-run-endless",
	Severity: checker.Warning,
	Title:    "a generated input makes the tool run without end",
	Doc: "Exploration (above) runs every function tool with inputs generated from its schema and its code. A run " +
		"that spends its whole budget of work without returning is stopped there, and so is the tool's " +
		"exploration: the page loops for that input (a `while` whose condition the input never changes, a retry " +
		"loop that never gives up), or does far more work than a tool should. The message names the " +
		"input, and how the fetches were answered when not by the fixtures, so " +
		"`plugin-lsp run --input '…' DIR TOOL` runs it under the sandbox's deadline.\n\n" +
		"Until it finishes, what the runs after it would have reached is unknown: the explored findings of the " +
		"tool are those of the runs before it, and static analysis covers the rest. There is no automatic fix: " +
		"make the loop end for that input (or that answer).",
	Lang:   "ts",
	Before: "while (n !== 1) n = n % 2 ? 3 * n + 1 : n / 2; // input {\"n\": 0} never reaches 1",
	After:  "if (!(n >= 1)) throw new Error(\"n must be 1 or more\");\nwhile (n !== 1) n = n % 2 ? 3 * n + 1 : n / 2;",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.SyntaxError != nil || len(pass.Config.Explored) == 0 {
			return
		}
		for _, t := range p.Manifest.Tools {
			name := toolName(t)
			e := pass.Config.Explored[name]
			if e == nil || e.Stopped == 0 {
				continue
			}
			how := ""
			if e.StoppedAnswer != "" {
				how = ", every fetch answered " + e.StoppedAnswer + ","
			}
			pass.Reportf(checker.ManifestName, checker.SpanOf(t.Name),
				"exploring tool %s: the run with input %s%s did not finish within its budget of work: the page loops for it, or does far more work than a tool should (plugin-lsp run --input '%s' reproduces it)",
				name, checker.Clip(e.StoppedInput, 200), how, checker.Clip(e.StoppedInput, 200))
		}
	},
}
