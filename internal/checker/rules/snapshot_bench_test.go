package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

// pinnedExample copies the example plugin into a temp dir and pins it.
func pinnedExample(b *testing.B) string {
	b.Helper()
	src := "../../../testdata/example/books"
	dir := filepath.Join(b.TempDir(), "books")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
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
	p, err := checker.Load(nil, dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := lockfile.Pin(p, "plugin-lsp bench"); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkCheckExamplePinned is BenchmarkCheckExampleWarm with a
// plugin.lock.json beside the example: the difference between the two is
// what drift detection adds to a check (target ≤ 1 ms).
func BenchmarkCheckExamplePinned(b *testing.B) {
	cfg := checker.DefaultConfig()
	cache := checker.NewCache()
	all := All()
	dir := pinnedExample(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := checker.Load(nil, dir)
		if err != nil {
			b.Fatal(err)
		}
		if ds := checker.Run(p, all, cfg, cache); len(ds) != 0 {
			b.Fatalf("pinned example not clean: %v", ds)
		}
	}
}

// BenchmarkDriftRulesPinned runs only the three snapshot rules on the
// pinned example (a warm cache, as in the server).
func BenchmarkDriftRulesPinned(b *testing.B) {
	cfg := checker.DefaultConfig()
	cache := checker.NewCache()
	dir := pinnedExample(b)
	rs := snapshotRules()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := checker.Load(nil, dir)
		if err != nil {
			b.Fatal(err)
		}
		if ds := checker.Run(p, rs, cfg, cache); len(ds) != 0 {
			b.Fatalf("drift on a fresh pin: %v", ds)
		}
	}
}

// BenchmarkLoadPinned is the load alone, to read the two above against.
func BenchmarkLoadPinned(b *testing.B) {
	dir := pinnedExample(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := checker.Load(nil, dir); err != nil {
			b.Fatal(err)
		}
	}
}
