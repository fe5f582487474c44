package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/runner"
)

// summary is the one-line outcome of a run shown in lenses and inlay
// hints: "✓ Title: The Hobbit · 12 ms · 1 fetch".
func summary(run *toolRun) string {
	if run == nil {
		return ""
	}
	if run.record == nil {
		return "✗ " + run.err
	}
	rec := run.record
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
	n, refused := len(rec.Fetches), 0
	for _, f := range rec.Fetches {
		if f.Refused != "" {
			refused++
		}
	}
	fetch := fmt.Sprintf("%d fetch", n)
	if n != 1 {
		fetch += "es"
	}
	if refused > 0 {
		fetch += fmt.Sprintf(" (%d refused)", refused)
	}
	parts = append(parts, fetch)
	return strings.Join(parts, " · ")
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

// oneLine is s on one line (runs of white space as one space), clipped
// to about n bytes.
func oneLine(s string, n int) string {
	return analysis.Clip(strings.Join(strings.Fields(s), " "), n-1)
}

// renderRun is the whole result of a run as Markdown: the SubUI value
// (stat, table, list, markdown; anything else as JSON), the error, the
// logs and the fetch log.
func renderRun(tool string, run *toolRun) string {
	var b strings.Builder
	if run.record == nil {
		fmt.Fprintf(&b, "**%s** could not run: %s\n", tool, mdEscape(run.err))
		return b.String()
	}
	rec := run.record
	fmt.Fprintf(&b, "**Last run of %s** — %s\n\n", tool, mdEscape(summary(run)))
	if len(run.input) > 0 {
		fmt.Fprintf(&b, "Input: `%s`\n\n", strings.ReplaceAll(compact(run.input), "`", "'"))
	}
	if rec.OK {
		b.WriteString(renderValue(rec.Result))
	} else if rec.Error != nil {
		fmt.Fprintf(&b, "**%s**: %s\n\n", mdEscape(rec.Error.Name), mdEscape(rec.Error.Message))
		if rec.Error.Stack != "" {
			fmt.Fprintf(&b, "```\n%s\n```\n\n", strings.TrimSpace(rec.Error.Stack))
		}
	}
	if len(rec.Logs) > 0 {
		b.WriteString("**Logs**\n\n```\n")
		for _, l := range rec.Logs {
			fmt.Fprintf(&b, "[%s] %s\n", l.Level, l.Message)
		}
		b.WriteString("```\n\n")
	}
	if len(rec.Fetches) > 0 {
		b.WriteString(renderFetches(rec.Fetches))
	}
	return b.String()
}

func renderFetches(fs []runner.FetchEntry) string {
	var b strings.Builder
	b.WriteString("**Fetches**\n\n| method | URL | status | source | ms | credentials |\n|---|---|---|---|---|---|\n")
	for _, f := range fs {
		status := fmt.Sprint(f.Status)
		if f.Refused != "" {
			status = "refused: " + f.Refused
		} else if f.Error != "" {
			status = "error"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %.0f | %s |\n", cell(f.Method), cell(f.URL), cell(status), cell(f.Source), f.Ms, cell(strings.Join(f.Credentials, ", ")))
	}
	b.WriteString("\n")
	return b.String()
}

// renderValue renders a SubUI value.
func renderValue(raw json.RawMessage) string {
	var v map[string]any
	if json.Unmarshal(raw, &v) == nil && v != nil {
		switch v["type"] {
		case "stat":
			label, _ := v["label"].(string)
			if label == "" {
				label = "Value"
			}
			return fmt.Sprintf("**%s**: %s\n\n", mdEscape(label), mdEscape(scalar(v["value"])))
		case "table":
			cols, _ := v["columns"].([]any)
			rows, _ := v["rows"].([]any)
			if len(cols) > 0 {
				var b strings.Builder
				b.WriteString("|")
				for _, c := range cols {
					b.WriteString(" " + cell(scalar(c)) + " |")
				}
				b.WriteString("\n|" + strings.Repeat("---|", len(cols)) + "\n")
				for _, r := range rows {
					cells, _ := r.([]any)
					b.WriteString("|")
					for i := range cols {
						c := ""
						if i < len(cells) {
							c = scalar(cells[i])
						}
						b.WriteString(" " + cell(c) + " |")
					}
					b.WriteString("\n")
				}
				b.WriteString("\n")
				return b.String()
			}
		case "list":
			if items, ok := v["items"].([]any); ok {
				var b strings.Builder
				for _, it := range items {
					b.WriteString("- " + mdEscape(listItem(it)) + "\n")
				}
				b.WriteString("\n")
				return b.String()
			}
		case "markdown":
			if text, ok := v["text"].(string); ok {
				return text + "\n\n"
			}
		}
	}
	return "```json\n" + pretty(raw) + "\n```\n\n"
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

func mdEscape(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", "[", "\\[", "]", "\\]")
	return r.Replace(s)
}

func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(mdEscape(s), "|", "\\|"), "\n", " ")
}
