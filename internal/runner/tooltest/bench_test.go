package tooltest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchPlugin copies the example plugin and adds tests/bench.json with n
// cases spread over its three tools (fetches with credentials, a cover
// fan-out, collections), as an author's suite would be.
func benchPlugin(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	src := "../../../testdata/example/books"
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	var cases []string
	for i := range n {
		switch i % 3 {
		case 0:
			cases = append(cases, fmt.Sprintf(`{"name": "lookup %d", "tool": "lookupBook", "input": {"isbn": "9780261103344"}, "resultContains": {"value": "The Hobbit"}, "fetches": [{"credentials": ["openlibrary_key"]}]}`, i))
		case 1:
			cases = append(cases, fmt.Sprintf(`{"name": "search %d", "tool": "searchBooks", "input": {"q": "hobbit", "limit": 2}, "resultContains": {"type": "table"}}`, i))
		default:
			cases = append(cases, fmt.Sprintf(`{"name": "save %d", "tool": "saveFavourite", "input": {"isbn": "%d"}, "resultContains": {"type": "markdown"}}`, i, 1000+i))
		}
	}
	os.WriteFile(filepath.Join(dir, "tests", "bench.json"), []byte(`{"cases": [`+strings.Join(cases, ",\n")+`]}`), 0o644)
	return dir
}

// BenchmarkSuite200: `plugin-lsp test` of 200 cases, 2 at a time (the
// target machine has 2 cores), with the runner warm (what a CLI run costs
// beyond process start; scripts/bench-test.sh times the whole command).
func BenchmarkSuite200(b *testing.B) {
	dir := benchPlugin(b, 200)
	for b.Loop() {
		rs := runDir(b, dir, Options{Parallel: 2, Filter: nil})
		sum := Summarize(rs)
		if !sum.OK() || sum.Passed < 200 {
			b.Fatalf("%+v", sum)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/suite")
}
