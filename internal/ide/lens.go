package ide

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
)

// Lens is one code lens: where it sits and what it runs.
type Lens struct {
	Span    checker.Span
	Command Command
}

// ToolLenses puts "▶ Run <tool>" on each tool shown in file rel (Anchors,
// and a native tool's name in the manifest and its key in the module:
// NativeAnchors); after a run the title is its outcome, or says what
// changed since.
func (vw *View) ToolLenses(rel string) []Lens {
	var out []Lens
	for _, a := range append(Anchors(vw.Plugin, rel), NativeAnchors(vw.Plugin, rel)...) {
		title := "▶ Run " + a.Tool
		if run := vw.Runs[a.Tool]; run != nil {
			title = RunLens(run, vw.Stale(a.Tool))
		}
		out = append(out, Lens{Span: a.Span, Command: Command{Title: title, Name: CommandRunTool, File: rel, Tool: a.Tool}})
	}
	return out
}

// TestLenses: "▶ Run all N tests" at the top of test file rel (then the
// counts passed, failed and skipped), "▶ Run test" (then the outcome) on
// each case. A skipped case is neither passed nor failed.
func TestLenses(rel string, cases []TestCase) []Lens {
	if len(cases) == 0 {
		return nil
	}
	out := make([]Lens, 1, len(cases)+1)
	passed, failed, skipped, ran := 0, 0, 0, 0
	for _, c := range cases {
		title := "▶ Run test"
		if r := c.Result; r != nil {
			ran++
			switch r.Status {
			case testcase.Pass:
				passed++
				title = fmt.Sprintf("✓ passed · %.0f ms · ▶ Run again", r.DurationMs)
			case testcase.Skip:
				skipped++
				title = "⊘ skipped · ▶ Run again"
			default:
				failed++
				title = fmt.Sprintf("✗ failed (%s) · ▶ Run again", plural(len(r.Failures), "difference", "differences"))
			}
		}
		out = append(out, Lens{Span: c.Case.NameSpan, Command: Command{Title: title, Name: CommandRunTests, File: rel, Case: c.Case.Name}})
	}
	title := fmt.Sprintf("▶ Run all %d tests", len(cases))
	if ran > 0 {
		title = fmt.Sprintf("✓ %d passed", passed)
		if failed > 0 {
			title += fmt.Sprintf(" · ✗ %d failed", failed)
		}
		if skipped > 0 {
			title += fmt.Sprintf(" · ⊘ %d skipped", skipped)
		}
		title += " · ▶ Run all"
	}
	out[0] = Lens{Span: checker.Span{Start: 0, End: 1}, Command: Command{Title: title, Name: CommandRunTests, File: rel}}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
