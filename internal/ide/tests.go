package ide

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
)

// The tool tests (tests/*.json) in the editor: which cases a run of
// plugin.runTests selects, which kept result still belongs to a case, the
// test files' diagnostics, what plugin.runTests answers and what
// plugin.acceptSnapshot accepts. Their lenses are TestLenses (lens.go),
// the accept quick fix acceptActions (code_action.go); the approval of
// native cases is TestApprovals (approval.go).

// TestResults are the last result of each case run in this session, by
// TestKey.
type TestResults map[string]*testcase.Result

// TestKey identifies a case across edits: its test file and name.
func TestKey(rel, name string) string { return rel + "\x00" + name }

// IsTestFile reports whether rel (plugin-relative) is a test file:
// tests/<name>.json.
func IsTestFile(rel string) bool {
	return strings.HasPrefix(rel, testcase.Dir+"/") && strings.Count(rel, "/") == 1 && strings.HasSuffix(rel, ".json")
}

// Keep stores the results of a run (those of cases; a test file's
// problem is its diagnostic, not a result).
func (rs TestResults) Keep(results []testcase.Result) {
	for i := range results {
		r := results[i]
		if r.Case != nil {
			rs[TestKey(r.File, r.Name)] = &r
		}
	}
}

// For is the last result of case c, unless the case was edited since it
// ran (an outcome for other expectations would mislead).
func (rs TestResults) For(c *testcase.Case) *testcase.Result {
	r := rs[TestKey(c.File.Rel, c.Name)]
	if r == nil || r.Case == nil || caseText(r.Case) != caseText(c) {
		return nil
	}
	return r
}

func caseText(c *testcase.Case) string {
	if c.Span.Start < 0 || c.Span.End > len(c.File.Text) || c.Span.Start > c.Span.End {
		return ""
	}
	return string(c.File.Text[c.Span.Start:c.Span.End])
}

// TestCase is one case of a test file as lenses and code actions read it,
// with the result of its last run (nil when it did not run since it was
// last edited).
type TestCase struct {
	Case   *testcase.Case
	Result *testcase.Result
}

// TestCases are the cases of test file rel with their last results; nil
// when the file has problems (its diagnostics say which).
func TestCases(files []*testcase.File, rs TestResults, rel string) []TestCase {
	var out []TestCase
	for _, f := range files {
		if f.Rel != rel || len(f.Problems) > 0 {
			continue
		}
		for _, c := range f.Cases {
			out = append(out, TestCase{Case: c, Result: rs.For(c)})
		}
	}
	return out
}

// TestDiagnostics are the test files' mistakes (errors), the failures of
// the cases' last runs (errors on the case name, the differences in the
// message) and the cases skipped (warnings, with the reason: a skipped
// case is not a passed one).
func TestDiagnostics(files []*testcase.File, rs TestResults) []checker.Diagnostic {
	var out []checker.Diagnostic
	for _, f := range files {
		for _, pr := range f.Problems {
			out = append(out, checker.Diagnostic{File: f.Rel, Span: pr.Span, Severity: checker.Error, Message: "test file: " + pr.Message})
		}
		for _, c := range f.Cases {
			r := rs.For(c)
			switch {
			case r == nil || r.Status == testcase.Pass:
				continue
			case r.Status == testcase.Skip:
				out = append(out, checker.Diagnostic{File: f.Rel, Span: c.NameSpan, Severity: checker.Warning, Message: fmt.Sprintf("test %s was skipped: %s", c.ID(), r.Skipped)})
			default:
				msg := fmt.Sprintf("test %s failed:\n%s", c.ID(), strings.TrimRight(testcase.FailureText(r, ""), "\n"))
				out = append(out, checker.Diagnostic{File: f.Rel, Span: c.NameSpan, Severity: checker.Error, Message: msg})
			}
		}
	}
	return out
}

// TestSelection is what a run of plugin.runTests asks for: one test file
// (plugin-relative; "" for every test of the plugin) and, in it, one case
// by name ("" for all).
type TestSelection struct {
	File, Case string
}

// Files keeps the test files the selection names.
func (s TestSelection) Files(files []*testcase.File) []*testcase.File {
	if s.File == "" {
		return files
	}
	var keep []*testcase.File
	for _, f := range files {
		if f.Rel == s.File {
			keep = append(keep, f)
		}
	}
	return keep
}

// Filter matches the IDs ("<tool>/<name>") of the cases the selection
// names; nil for all.
func (s TestSelection) Filter() *regexp.Regexp {
	if s.Case == "" {
		return nil
	}
	return regexp.MustCompile("/" + regexp.QuoteMeta(s.Case) + "$")
}

// Cases are the runnable cases of files the selection keeps (a file with
// problems runs none).
func (s TestSelection) Cases(files []*testcase.File) []*testcase.Case {
	filter := s.Filter()
	var out []*testcase.Case
	for _, f := range s.Files(files) {
		if len(f.Problems) > 0 {
			continue
		}
		for _, c := range f.Cases {
			if filter == nil || filter.MatchString(c.ID()) {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestsAnswer is what plugin.runTests returns, as `plugin-lsp test
// --format json` lists its results: each result names the plugin's
// directory.
func TestsAnswer(dir string, results []testcase.Result) []testcase.Result {
	for i := range results {
		results[i].Plugin = dir
	}
	return results
}

// AcceptTarget is what plugin.acceptSnapshot stores: the snapshot case
// name of test file rel (as files, the editor's text, have it) and the
// result of its last run (rs), which returned; or why there is none.
func AcceptTarget(files []*testcase.File, rs TestResults, rel, name string) (*testcase.Case, *testcase.Result, error) {
	r := rs[TestKey(rel, name)]
	if r == nil || r.Record == nil || !r.Record.OK {
		return nil, nil, fmt.Errorf("%s: case %q has no result to accept: run it first", CommandAcceptSnapshot, name)
	}
	var c *testcase.Case
	for _, f := range files {
		for _, x := range f.Cases {
			if f.Rel == rel && x.Name == name {
				c = x
			}
		}
	}
	if c == nil || !c.Snapshot {
		return nil, nil, fmt.Errorf("%s: %s has no snapshot case %q", CommandAcceptSnapshot, rel, name)
	}
	return c, r, nil
}
