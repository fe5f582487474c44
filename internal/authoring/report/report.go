// Package report prints the results of checking plugin directories
// (checker.CheckAll) in the formats of plugin-lsp check: text, JSON
// (LSP-shaped) and SARIF 2.1.0. It knows nothing of the language server.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Summary is the closing line of the text format, on stderr so that
// stdout stays one diagnostic per line: "2 plugins checked: 1 error, 0
// warnings, 3 infos".
func Summary(results []checker.Result) string {
	var counts [checker.Hint + 1]int
	for _, r := range results {
		for _, d := range r.Diags {
			if d.Severity >= checker.Error && d.Severity <= checker.Hint {
				counts[d.Severity]++
			}
		}
	}
	plural := func(n int, word string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, word)
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	return fmt.Sprintf("%s checked: %s, %s, %s", plural(len(results), "plugin"),
		plural(counts[checker.Error], "error"), plural(counts[checker.Warning], "warning"),
		plural(counts[checker.Info]+counts[checker.Hint], "info"))
}

// FirstLine keeps text output one line per diagnostic.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// WriteText prints file:line:col: severity: message [code], 1-based, and
// under a diagnostic that has a fix, "  fix: <title>" (the preferred fix,
// else the first), as compilers print their hints. Paths, messages and
// titles quote the plugin: their controls are shown (text.Visible).
func WriteText(w io.Writer, results []checker.Result) error {
	var b strings.Builder
	for _, r := range results {
		for _, d := range r.Diags {
			fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", text.Visible(filepath.Join(r.Dir, filepath.FromSlash(d.File))),
				d.Start.Line+1, d.Start.Col+1, d.Severity, text.Visible(FirstLine(d.Message)), text.Visible(d.Code))
			if t := d.ShownFix(); t != "" {
				fmt.Fprintf(&b, "  fix: %s\n", text.Visible(FirstLine(t)))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonDiagnostic is the documented shape plus "plugin" (the plugin
// directory, so results of several directories stay apart).
type jsonDiagnostic struct {
	Plugin   string    `json:"plugin"`
	File     string    `json:"file"`
	Range    jsonRange `json:"range"`
	Severity int       `json:"severity"` // LSP: 1 error, 2 warning, 3 information, 4 hint
	Code     string    `json:"code"`
	Message  string    `json:"message"`
}

type jsonRange struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

type jsonPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// WriteJSON prints the documented LSP-shaped array.
func WriteJSON(w io.Writer, results []checker.Result) error {
	out := []jsonDiagnostic{}
	for _, r := range results {
		for _, d := range r.Diags {
			out = append(out, jsonDiagnostic{
				Plugin: filepath.ToSlash(r.Dir), File: d.File,
				Range: jsonRange{
					Start: jsonPos{d.Start.Line, d.Start.Col},
					End:   jsonPos{d.End.Line, d.End.Col},
				},
				Severity: int(d.Severity), Code: d.Code, Message: d.Message,
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the subset
// GitHub code scanning reads.

// RulesDocURL is where each rule's doc lives; #<code> is its heading.
const RulesDocURL = "https://github.com/plugin-lsp/plugin-lsp/blob/main/docs/rules.md"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
	ColumnKind         string                      `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	Help                 sarifText       `json:"help"`
	HelpURI              string          `json:"helpUri"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func sarifLevel(s checker.Severity) string {
	switch s {
	case checker.Error:
		return "error"
	case checker.Warning:
		return "warning"
	}
	return "note"
}

// ruleName turns a code into the PascalCase name SARIF viewers show.
func ruleName(code string) string {
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// WriteSARIF prints a SARIF 2.1.0 log; paths relative to the working directory.
func WriteSARIF(w io.Writer, results []checker.Result, version string) error {
	cwd, _ := os.Getwd()
	driver := sarifDriver{
		Name: "plugin-lsp", Version: version,
		InformationURI: "https://github.com/plugin-lsp/plugin-lsp",
		Rules:          []sarifRule{},
	}
	index := map[string]int{}
	addRule := func(code, title, doc, help string, sev checker.Severity) {
		if _, ok := index[code]; ok {
			return
		}
		index[code] = len(driver.Rules)
		if title == "" {
			title = code
		}
		if doc == "" {
			doc = title
		}
		driver.Rules = append(driver.Rules, sarifRule{
			ID: code, Name: ruleName(code),
			ShortDescription: sarifText{Text: title}, FullDescription: sarifText{Text: doc},
			Help:                 sarifText{Text: doc, Markdown: help},
			HelpURI:              RulesDocURL + "#" + code,
			DefaultConfiguration: sarifRuleConfig{sarifLevel(sev)},
		})
	}
	for _, r := range rules.All() {
		if !r.Reports() {
			continue // a pass over the other rules' results
		}
		help := r.Doc
		if r.Before != "" {
			help += "\n\nTriggers the rule:\n\n```" + r.Lang + "\n" + r.Before + "\n```"
		}
		if r.After != "" {
			help += "\n\nFixed:\n\n```" + r.Lang + "\n" + r.After + "\n```"
		}
		addRule(r.Code, r.Title, r.Doc, help, r.Severity)
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}, ColumnKind: "utf16CodeUnits"}
	if cwd != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{
			"%SRCROOT%": {URI: (&url.URL{Scheme: "file", Path: strings.TrimSuffix(filepath.ToSlash(cwd), "/") + "/"}).String()},
		}
	}
	for _, r := range results {
		for _, d := range r.Diags {
			addRule(d.Code, "", "", "", d.Severity) // internal-error and any code not in the list
			uri := filepath.Join(r.Dir, filepath.FromSlash(d.File))
			if abs, err := filepath.Abs(uri); err == nil && cwd != "" {
				if rel, err := filepath.Rel(cwd, abs); err == nil {
					uri = rel
				}
			}
			end := d.End
			if end.Line == d.Start.Line && end.Col == d.Start.Col {
				end.Col++ // SARIF regions are not empty: mark one character
			}
			run.Results = append(run.Results, sarifResult{
				RuleID: d.Code, RuleIndex: index[d.Code], Level: sarifLevel(d.Severity),
				Message: sarifText{Text: d.Message},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(uri)}).String(), URIBaseID: "%SRCROOT%"},
					Region: sarifRegion{
						StartLine: d.Start.Line + 1, StartColumn: d.Start.Col + 1,
						EndLine: end.Line + 1, EndColumn: end.Col + 1,
					},
				}}},
			})
		}
	}
	run.Tool.Driver = driver
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}
