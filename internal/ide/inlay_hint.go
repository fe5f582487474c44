package ide

// Hint is one inlay hint: the outcome of a tool's last run, at the end of
// the line of the tool's anchor, with the whole run as its tooltip.
type Hint struct {
	At      int // byte offset: the end of the anchor's line
	Label   string
	Tooltip Doc
}

// RunHints are the hints of file rel: one per tool shown there (Anchors)
// that has run.
func (vw *View) RunHints(rel string) []Hint {
	if vw.Plugin == nil {
		return nil
	}
	f, err := vw.Plugin.ReadFile(rel)
	if err != nil {
		return nil
	}
	var out []Hint
	for _, a := range Anchors(vw.Plugin, rel) {
		run := vw.Runs[a.Tool]
		if run == nil {
			continue
		}
		end := a.Span.End
		for end < len(f.Text) && f.Text[end] != '\n' {
			end++
		}
		out = append(out, Hint{At: end, Label: RunHint(run, vw.Stale(a.Tool)), Tooltip: RenderRun(a.Tool, run)})
	}
	return out
}
