package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/rules"
)

const checkUsage = `usage: plugin-lsp check [--format text|json|sarif] [--builtins FILE] DIR...

Checks every plugin at or below each DIR (a directory holding plugin.json,
a directory of plugins, or a plugin.json file). Exit status: 0 no errors,
1 errors found, 2 bad usage (unknown flag, a DIR without any plugin).
Rules and their codes: docs/rules.md.

  --format text   file:line:col: severity: message [code]   (the default;
                  1-based line and UTF-16 column)
  --format json   [{plugin, file, range: {start: {line, character}, end},
                  severity (1 error, 2 warning, 3 info, 4 hint), code, message}]
                  LSP-shaped: 0-based lines, UTF-16 characters, file
                  relative to the plugin directory
  --format sarif  SARIF 2.1.0 for code-scanning services
  --builtins FILE a JSON array of tool names that extends the built-in catalogue
`

// checkOptions are the parsed arguments of check and review.
type checkOptions struct {
	format   string
	builtins string
	dirs     []string
}

// parseCheckArgs accepts flags before, between and after the directories
// ("--format json", "--format=json", "-format json"); "--" ends flags.
func parseCheckArgs(args []string, formats ...string) (checkOptions, error) {
	o := checkOptions{format: formats[0]}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.dirs = append(o.dirs, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			o.dirs = append(o.dirs, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "format", "builtins":
			if !hasVal {
				if i+1 >= len(args) {
					return o, fmt.Errorf("flag --%s needs a value", name)
				}
				i++
				val = args[i]
			}
			if name == "builtins" {
				o.builtins = val
				continue
			}
			ok := false
			for _, f := range formats {
				ok = ok || f == val
			}
			if !ok {
				return o, fmt.Errorf("unknown format %q (want %s)", val, strings.Join(formats, ", "))
			}
			o.format = val
		case "h", "help":
			return o, errHelp
		default:
			return o, fmt.Errorf("unknown flag %s", a)
		}
	}
	return o, nil
}

var errHelp = fmt.Errorf("help requested")

// loadConfig builds the check configuration: the embedded catalogue plus
// the names of a --builtins file.
func loadConfig(builtins string) (*analysis.Config, error) {
	cfg := analysis.DefaultConfig()
	if builtins == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(builtins)
	if err != nil {
		return nil, err
	}
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return nil, fmt.Errorf("%s: want a JSON array of tool names: %v", builtins, err)
	}
	cfg.Builtins = cfg.Builtins.Extend(names...)
	return cfg, nil
}

// checked is one plugin's result, with positions already computed.
type checked struct {
	dir   string // as shown: the DIR argument joined with the plugin's path below it
	err   error  // the plugin could not be loaded
	diags []located
}

// located is a diagnostic with 0-based line/UTF-16 column positions.
type located struct {
	analysis.Diagnostic
	start, end analysis.Position
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	o, err := parseCheckArgs(args, "text", "json", "sarif")
	if err == errHelp {
		fmt.Fprint(stdout, checkUsage)
		return 0
	}
	if err == nil && len(o.dirs) == 0 {
		err = fmt.Errorf("no plugin directory given")
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: %v\n\n%s", err, checkUsage)
		return 2
	}
	cfg, err := loadConfig(o.builtins)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: --builtins: %v\n", err)
		return 2
	}
	var dirs []string
	seen := map[string]bool{}
	for _, d := range o.dirs {
		if fi, err := os.Stat(d); err == nil && !fi.IsDir() && filepath.Base(d) == analysis.ManifestName {
			d = filepath.Dir(d) // a plugin.json named directly
		}
		found, err := analysis.FindPlugins(d)
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp check: %v\n", err)
			return 2
		}
		if len(found) == 0 {
			fmt.Fprintf(stderr, "plugin-lsp check: no plugin.json at or below %s\n", d)
			return 2
		}
		for _, f := range found {
			abs, _ := filepath.Abs(f)
			if !seen[abs] { // the same plugin named twice is checked once
				seen[abs] = true
				dirs = append(dirs, f)
			}
		}
	}
	results := checkAll(dirs, cfg)
	exit := 0
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(stderr, "plugin-lsp check: %s: %v\n", r.dir, r.err)
			exit = 1
		}
		for _, d := range r.diags {
			if d.Severity == analysis.Error {
				exit = 1
			}
		}
	}
	switch o.format {
	case "json":
		err = writeJSON(stdout, results)
	case "sarif":
		err = writeSARIF(stdout, results)
	default:
		err = writeText(stdout, results)
		if err == nil {
			fmt.Fprintln(stderr, summary(results))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp check: %v\n", err)
		return 1
	}
	return exit
}

// summary is the closing line of the text format, on stderr so that
// stdout stays one diagnostic per line: "2 plugins checked: 1 error, 0
// warnings, 3 infos".
func summary(results []checked) string {
	var counts [analysis.Hint + 1]int
	for _, r := range results {
		for _, d := range r.diags {
			if d.Severity >= analysis.Error && d.Severity <= analysis.Hint {
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
		plural(counts[analysis.Error], "error"), plural(counts[analysis.Warning], "warning"),
		plural(counts[analysis.Info]+counts[analysis.Hint], "info"))
}

// checkAll loads and checks the plugins concurrently (at most GOMAXPROCS
// at a time, sharing one analysis cache) and returns results in order.
func checkAll(dirs []string, cfg *analysis.Config) []checked {
	results := make([]checked, len(dirs))
	cache := analysis.NewCache()
	all := rules.All()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(dirs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = checkOne(dirs[i], cfg, cache, all)
			}
		}()
	}
	for i := range dirs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

func checkOne(dir string, cfg *analysis.Config, cache *analysis.Cache, all []*analysis.Rule) (r checked) {
	r.dir = dir
	defer func() {
		if e := recover(); e != nil {
			r.err = fmt.Errorf("internal error (please report this): %v", e)
		}
	}()
	p, err := analysis.Load(nil, dir)
	if err != nil {
		r.err = err
		return r
	}
	for _, d := range analysis.Run(p, all, cfg, cache) {
		l := located{Diagnostic: d}
		if f := diagFile(p, d.File); f != nil {
			l.start, l.end = f.Position(d.Span.Start), f.Position(d.Span.End)
		}
		r.diags = append(r.diags, l)
	}
	return r
}

// diagFile returns the file a diagnostic is in, nil when it cannot be read.
func diagFile(p *analysis.Plugin, rel string) *analysis.File {
	switch {
	case rel == analysis.ManifestName:
		return p.ManifestFile
	case rel == analysis.FixturesName && p.FixturesFile != nil:
		return p.FixturesFile
	}
	f, err := p.ReadFile(rel)
	if err != nil {
		return nil
	}
	return f
}

// firstLine keeps text output one line per diagnostic.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func writeText(w io.Writer, results []checked) error {
	var b strings.Builder
	for _, r := range results {
		for _, d := range r.diags {
			fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", filepath.Join(r.dir, filepath.FromSlash(d.File)),
				d.start.Line+1, d.start.Col+1, d.Severity, firstLine(d.Message), d.Code)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonDiagnostic is DESIGN.md §5's shape plus "plugin" (the plugin
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

func writeJSON(w io.Writer, results []checked) error {
	out := []jsonDiagnostic{}
	for _, r := range results {
		for _, d := range r.diags {
			out = append(out, jsonDiagnostic{
				Plugin: filepath.ToSlash(r.dir), File: d.File,
				Range: jsonRange{
					Start: jsonPos{d.start.Line, d.start.Col},
					End:   jsonPos{d.end.Line, d.end.Col},
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

// rulesDocURL is where each rule's doc lives; #<code> is its heading.
const rulesDocURL = "https://github.com/plugin-lsp/plugin-lsp/blob/main/docs/rules.md"

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

func sarifLevel(s analysis.Severity) string {
	switch s {
	case analysis.Error:
		return "error"
	case analysis.Warning:
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

func writeSARIF(w io.Writer, results []checked) error {
	cwd, _ := os.Getwd()
	driver := sarifDriver{
		Name: "plugin-lsp", Version: version,
		InformationURI: "https://github.com/plugin-lsp/plugin-lsp",
		Rules:          []sarifRule{},
	}
	index := map[string]int{}
	addRule := func(code, title, doc, help string, sev analysis.Severity) {
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
			HelpURI:              rulesDocURL + "#" + code,
			DefaultConfiguration: sarifRuleConfig{sarifLevel(sev)},
		})
	}
	for _, r := range rules.All() {
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
		for _, d := range r.diags {
			addRule(d.Code, "", "", "", d.Severity) // internal-error and any code not in the list
			uri := filepath.Join(r.dir, filepath.FromSlash(d.File))
			if abs, err := filepath.Abs(uri); err == nil && cwd != "" {
				if rel, err := filepath.Rel(cwd, abs); err == nil {
					uri = rel
				}
			}
			end := d.end
			if end.Line == d.start.Line && end.Col == d.start.Col {
				end.Col++ // SARIF regions are not empty: mark one character
			}
			run.Results = append(run.Results, sarifResult{
				RuleID: d.Code, RuleIndex: index[d.Code], Level: sarifLevel(d.Severity),
				Message: sarifText{Text: d.Message},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(uri)}).String(), URIBaseID: "%SRCROOT%"},
					Region: sarifRegion{
						StartLine: d.start.Line + 1, StartColumn: d.start.Col + 1,
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
