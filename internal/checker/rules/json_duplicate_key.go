package rules

import (
	"fmt"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// maxDuplicateReports bounds the diagnostics of one file: a generated
// file with thousands of repeated keys gets the first ones and a count.
const maxDuplicateReports = 100

// JSONDuplicateKey reports a key written twice in one JSON object of any
// file the project reads (jsonpos.DuplicateKeys, the one check every reader
// uses).
var JSONDuplicateKey = &checker.Rule{
	Code:     "json-duplicate-key",
	Severity: checker.Error,
	Title:    "a JSON key written twice in one object",
	Doc: "A key that appears twice in one object makes the file say two things: most JSON readers keep the " +
		"last value, some the first, and a reviewer reads whichever they see first. A `plugin.lock.json` whose " +
		"`functionTools` is written once narrow and once wide would pass review with one and run with the other. " +
		"So every reader of the project refuses such a file instead of picking one (`run`, `test`, `pin` and the " +
		"drift check all stop with both positions), and `check` reports it here, on the later key, with the first " +
		"one as related information. The files checked: `plugin.json`, `fixtures.json`, `plugin.lock.json`, " +
		"`tests/*.json` and `tests/__snapshots__/*.json`. Keys compare after JSON unescaping (`\"a\"` and " +
		"`\"\\u0061\"` are the same key) and exactly otherwise (`\"A\"` is another key).",
	Lang:   "json",
	Before: "{\n  \"functionTools\": [],\n  \"functionTools\": [{ \"name\": \"lookupBook\", \"host\": [\"http.fetch\"] }]\n}",
	After:  "{\n  \"functionTools\": [{ \"name\": \"lookupBook\", \"host\": [\"http.fetch\"] }]\n}",
	Run: func(pass *checker.Pass) {
		p := pass.Plugin
		if p.ManifestFile != nil && p.Manifest.Root != nil {
			reportDuplicates(pass, p.ManifestFile, p.Manifest.Root)
		}
		if p.FixturesFile != nil && p.FixturesRoot != nil {
			reportDuplicates(pass, p.FixturesFile, p.FixturesRoot)
		}
		rels := []string{lockfile.FileName}
		for _, dir := range []string{testsDir, testsDir + "/__snapshots__"} {
			for _, rel := range p.Siblings(dir + "/x") {
				if strings.HasSuffix(rel, ".json") {
					rels = append(rels, rel)
				}
			}
		}
		for _, rel := range rels {
			f, err := p.ReadFile(rel)
			if err != nil {
				continue // absent or unreadable: other rules (and the readers) say so
			}
			reportDuplicates(pass, f, nil)
		}
	},
}

// reportDuplicates reports the duplicate keys of f (root: its parsed
// tree, nil to parse it here), once per content.
func reportDuplicates(pass *checker.Pass, f *checker.File, root *jsonpos.Node) {
	ds := pass.Cache.Memo("json-duplicate-key", f.Text, func() any {
		if root == nil {
			root, _ = jsonpos.Parse(f.Text)
		}
		return jsonpos.DuplicateKeys(root)
	}).([]jsonpos.Duplicate)
	for i, d := range ds {
		e := jsonpos.NewDuplicateKeyError(f.Text, d)
		msg := e.Message()
		if i == maxDuplicateReports-1 && len(ds) > maxDuplicateReports {
			msg += fmt.Sprintf(" (and %d more duplicate keys in this file, not listed)", len(ds)-i-1)
		}
		pass.Report(checker.Diagnostic{
			File: f.Path, Span: d.Dup.KeySpan, Subject: d.Dup.Key, Message: msg,
			Related: []checker.Related{{File: f.Path, Span: d.First.KeySpan, Message: fmt.Sprintf("%q first written here", d.First.Key)}},
		})
		if i == maxDuplicateReports-1 {
			return
		}
	}
}
