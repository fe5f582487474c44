package tooltest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"io"
	"path/filepath"
	"strings"

	visible "github.com/plugin-lsp/plugin-lsp/internal/text" // the package has a func text
)

// Summary counts results.
type Summary struct {
	Passed, Failed, Broken, Skipped int
	DurationMs                      float64
}

// Summarize counts the results.
func Summarize(rs []testcase.Result) Summary {
	var s Summary
	for _, r := range rs {
		switch r.Status {
		case testcase.Pass:
			s.Passed++
		case testcase.Fail:
			s.Failed++
		case testcase.Skip:
			s.Skipped++
		default:
			s.Broken++
		}
	}
	return s
}

// String is the summary line: "12 passed, 0 failed, 0 errors in 0.35 s"
// (text output ends with it; the other formats print it on stderr).
func (s Summary) String() string {
	skipped := ""
	if s.Skipped > 0 {
		skipped = fmt.Sprintf(", %d skipped", s.Skipped)
	}
	return fmt.Sprintf("%d passed, %d failed, %d errors%s in %.2f s", s.Passed, s.Failed, s.Broken, skipped, s.DurationMs/1000)
}

// OK is true when every case passed.
func (s Summary) OK() bool { return s.Failed == 0 && s.Broken == 0 }

// Write prints results in a format: text, json, tap or junit. cwd makes
// plugin paths relative in text output.
func Write(w io.Writer, format string, rs []testcase.Result, sum Summary, cwd string) error {
	switch format {
	case "", "text":
		return writeText(w, rs, sum, cwd)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if rs == nil {
			rs = []testcase.Result{}
		}
		return enc.Encode(struct {
			Passed  int               `json:"passed"`
			Failed  int               `json:"failed"`
			Broken  int               `json:"errors"`
			Skipped int               `json:"skipped"`
			Results []testcase.Result `json:"results"`
		}{sum.Passed, sum.Failed, sum.Broken, sum.Skipped, rs})
	case "tap":
		return writeTAP(w, rs)
	case "junit":
		return writeJUnit(w, rs, cwd)
	}
	return fmt.Errorf("unknown format %q (want text, json, tap or junit)", format)
}

func rel(cwd, dir string) string {
	if cwd != "" {
		if r, err := filepath.Rel(cwd, dir); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(dir)
}

func writeText(w io.Writer, rs []testcase.Result, sum Summary, cwd string) error {
	for i := range rs {
		r := &rs[i]
		where := visible.Visible(rel(cwd, r.Plugin) + "/" + r.File + ":" + fmt.Sprint(r.Line))
		id := visible.Visible(r.ID())
		switch r.Status {
		case testcase.Pass:
			note := ""
			if r.Snapshot != "" {
				note = ", snapshot " + visible.Visible(r.Snapshot)
			}
			fmt.Fprintf(w, "ok    %s (%.1f ms%s)\n", id, r.DurationMs, note)
		case testcase.Fail:
			fmt.Fprintf(w, "FAIL  %s (%.1f ms)  %s\n%s", id, r.DurationMs, where, testcase.FailureText(r, "      "))
		case testcase.Skip:
			fmt.Fprintf(w, "SKIP  %s  %s\n      %s\n", id, where, visible.Visible(r.Skipped))
		default:
			fmt.Fprintf(w, "ERROR %s  %s\n%s", id, where, testcase.FailureText(r, "      "))
		}
	}
	verdict := "ok"
	if !sum.OK() {
		verdict = "FAIL"
	}
	_, err := fmt.Fprintf(w, "%s: %s\n", verdict, sum)
	return err
}

// writeTAP writes TAP version 14, failures as YAML diagnostics.
func writeTAP(w io.Writer, rs []testcase.Result) error {
	fmt.Fprintf(w, "TAP version 14\n1..%d\n", len(rs))
	for i := range rs {
		r := &rs[i]
		ok := "ok"
		if r.Status == testcase.Skip {
			fmt.Fprintf(w, "ok %d - %s # SKIP %s\n", i+1, tapEscape(r.ID()), tapEscape(r.Skipped))
			continue
		}
		if r.Status != testcase.Pass {
			ok = "not ok"
		}
		fmt.Fprintf(w, "%s %d - %s\n", ok, i+1, tapEscape(r.ID()))
		if r.Status != testcase.Pass {
			fmt.Fprintf(w, "  ---\n  file: %s\n  line: %d\n  failures:\n", yamlString(r.File), r.Line)
			for _, f := range r.Failures {
				fmt.Fprintf(w, "    - path: %s\n      message: %s\n", yamlString(f.Path), yamlString(f.Message))
				if f.Expected != "" {
					fmt.Fprintf(w, "      expected: %s\n", yamlString(f.Expected))
				}
				if f.Actual != "" {
					fmt.Fprintf(w, "      actual: %s\n", yamlString(f.Actual))
				}
			}
			fmt.Fprintf(w, "  ...\n")
		}
	}
	return nil
}

// tapEscape is a test point's description: controls shown (visible.Visible,
// so a newline cannot start a forged "ok" line), '#' and '\\' escaped.
func tapEscape(s string) string {
	return strings.NewReplacer("\\", "\\\\", "#", "\\#").Replace(visible.Visible(s))
}

// yamlString is a double-quoted YAML scalar (JSON strings are valid YAML)
// of s with its controls shown, as in the text output.
func yamlString(s string) string { return quoteJSON(visible.Visible(s)) }

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes one <testsuite> per plugin and test file.
func writeJUnit(w io.Writer, rs []testcase.Result, cwd string) error {
	var out junitSuites
	index := map[string]int{}
	for i := range rs {
		r := &rs[i]
		key := rel(cwd, r.Plugin) + "/" + r.File
		si, ok := index[key]
		if !ok {
			si = len(out.Suites)
			index[key] = si
			out.Suites = append(out.Suites, junitSuite{Name: key})
		}
		s := &out.Suites[si]
		jc := junitCase{Name: r.Name, Classname: strings.TrimPrefix(filepath.ToSlash(key), "./") + "." + r.Tool, File: key, Line: r.Line, Time: fmt.Sprintf("%.3f", r.DurationMs/1000)}
		msg := ""
		if len(r.Failures) > 0 {
			msg = r.Failures[0].Path + ": " + r.Failures[0].Message
		}
		switch r.Status {
		case testcase.Fail:
			jc.Failure = &junitProblem{Message: msg, Text: testcase.FailureText(r, "")}
			s.Failures++
			out.Failures++
		case testcase.Skip:
			jc.Skipped = &junitProblem{Message: r.Skipped}
		case testcase.Broken:
			jc.Error = &junitProblem{Message: msg, Text: testcase.FailureText(r, "")}
			s.Errors++
			out.Errors++
		}
		s.Tests++
		out.Tests++
		s.Cases = append(s.Cases, jc)
	}
	for i := range out.Suites {
		var t float64
		for _, c := range out.Suites[i].Cases {
			var x float64
			fmt.Sscanf(c.Time, "%g", &x)
			t += x
		}
		out.Suites[i].Time = fmt.Sprintf("%.3f", t)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
