package ide

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Summary is the one-line outcome of a run shown in lenses and inlay
// hints: "✓ Title: The Hobbit · 12 ms · 1 fetch".
func Summary(run *Run) string {
	if run == nil {
		return ""
	}
	if run.Record == nil {
		return "✗ " + run.Err
	}
	rec := run.Record
	var parts []string
	if rec.OK {
		parts = append(parts, "✓ "+resultSummary(rec.Result))
	} else {
		msg := "failed"
		if rec.Error != nil {
			msg = strings.TrimSpace(rec.Error.Name + ": " + rec.Error.Message)
		}
		parts = append(parts, "✗ "+oneLine(msg, 60))
	}
	parts = append(parts, fmt.Sprintf("%.0f ms", rec.DurationMs))
	// a function tool's traffic is its brokered fetches; a native
	// tool's, the connections it opened
	if rec.Lane == "native" {
		parts = append(parts, counted(rec.Connections, rec.ConnectionsOmitted, "connection", "connections", func(c record.Connection) string { return c.Refused }))
	} else {
		parts = append(parts, counted(rec.Fetches, 0, "fetch", "fetches", func(f record.FetchEntry) string { return f.Refused }))
	}
	return strings.Join(parts, " · ")
}

// counted is "2 fetches (1 refused)": how many of xs (and omitted) there
// were, and how many refused says were refused.
func counted[T any](xs []T, omitted int, one, many string, refused func(T) string) string {
	n, r := len(xs)+omitted, 0
	for _, x := range xs {
		if refused(x) != "" {
			r++
		}
	}
	s := plural(n, one, many)
	if r > 0 {
		s += fmt.Sprintf(" (%d refused)", r)
	}
	return s
}

// resultSummary is a short form of a SubUI value.
func resultSummary(raw json.RawMessage) string {
	var v map[string]any
	if json.Unmarshal(raw, &v) == nil && v != nil {
		switch v["type"] {
		case "stat":
			label, _ := v["label"].(string)
			val := scalar(v["value"])
			if label != "" {
				return oneLine(label+": "+val, 60)
			}
			return oneLine(val, 60)
		case "table":
			rows, _ := v["rows"].([]any)
			cols, _ := v["columns"].([]any)
			return fmt.Sprintf("table %d×%d", len(rows), len(cols))
		case "list":
			items, _ := v["items"].([]any)
			return fmt.Sprintf("list of %d", len(items))
		case "markdown":
			text, _ := v["text"].(string)
			line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
			return oneLine(line, 60)
		}
	}
	if len(raw) == 0 {
		return "null"
	}
	var c bytes.Buffer
	if json.Compact(&c, raw) != nil {
		return oneLine(string(raw), 60)
	}
	return oneLine(c.String(), 60)
}

func scalar(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// oneLine is s on one line (runs of white space as one space), controls
// shown (text.Visible), clipped to about n bytes.
func oneLine(s string, n int) string {
	return checker.Clip(text.Visible(strings.Join(strings.Fields(s), " ")), n-1)
}

// RenderRun is the whole result of a run: the SubUI value (stat, table,
// list, markdown; anything else as JSON), the error, the logs and the
// fetch log.
func RenderRun(tool string, run *Run) Doc {
	if run.Record == nil {
		return Doc{Para(Strong(tool), Text(" could not run: "), Quote(run.Err))}
	}
	rec := run.Record
	d := Doc{Para(Strong("Last run of "+tool), Text(" — "), Quote(Summary(run)))}
	if len(run.Input) > 0 {
		d = append(d, Para(Text("Input: "), Code(compact(run.Input))))
	}
	if rec.OK {
		d = append(d, renderValue(rec.Result)...)
	} else if rec.Error != nil {
		d = append(d, Para(StrongQuote(rec.Error.Name), Text(": "), Quote(rec.Error.Message)))
		if rec.Error.Stack != "" {
			d = append(d, CodeBlock("", strings.TrimSpace(rec.Error.Stack)))
		}
	}
	if len(rec.Logs) > 0 {
		var b strings.Builder
		for _, l := range rec.Logs {
			fmt.Fprintf(&b, "[%s] %s\n", l.Level, l.Message)
		}
		d = append(d, Para(Strong("Logs")), CodeBlock("", b.String()))
	}
	if len(rec.Fetches) > 0 {
		d = append(d, renderFetches(rec.Fetches)...)
	}
	return d
}

func renderFetches(fs []record.FetchEntry) []Block {
	rows := [][]string{{"method", "URL", "status", "source", "ms", "credentials"}}
	for _, f := range fs {
		status := fmt.Sprint(f.Status)
		if f.Refused != "" {
			status = "refused: " + f.Refused
		} else if f.Error != "" {
			status = "error"
		}
		source := f.Source
		if source == "" && f.Refused != "" {
			source = "not asked" // refused before any fixture or the network was consulted
		}
		rows = append(rows, []string{f.Method, f.URL, status, source, fmt.Sprintf("%.0f", f.Ms), strings.Join(f.Credentials, ", ")})
	}
	return []Block{Para(Strong("Fetches")), Table(rows...)}
}

// renderValue renders a SubUI value.
func renderValue(raw json.RawMessage) []Block {
	var v map[string]any
	if json.Unmarshal(raw, &v) == nil && v != nil {
		switch v["type"] {
		case "stat":
			label, _ := v["label"].(string)
			if label == "" {
				label = "Value"
			}
			return []Block{Para(StrongQuote(label), Text(": "), Quote(scalar(v["value"])))}
		case "table":
			cols, _ := v["columns"].([]any)
			rows, _ := v["rows"].([]any)
			if len(cols) > 0 {
				t := [][]string{make([]string, len(cols))}
				for i, c := range cols {
					t[0][i] = scalar(c)
				}
				for _, r := range rows {
					cells, _ := r.([]any)
					row := make([]string, len(cols))
					for i := range cols {
						if i < len(cells) {
							row[i] = scalar(cells[i])
						}
					}
					t = append(t, row)
				}
				return []Block{Table(t...)}
			}
		case "list":
			if items, ok := v["items"].([]any); ok {
				var list [][]Inline
				for _, it := range items {
					list = append(list, []Inline{Quote(listItem(it))})
				}
				return []Block{List(list...)}
			}
		case "markdown":
			if text, ok := v["text"].(string); ok {
				return []Block{Markdown(text)}
			}
		}
	}
	return []Block{CodeBlock("json", pretty(raw))}
}

func listItem(it any) string {
	if m, ok := it.(map[string]any); ok {
		for _, k := range []string{"title", "label", "text", "name"} {
			if s, ok := m[k].(string); ok {
				return s
			}
		}
	}
	return scalar(it)
}

func pretty(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "null"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
