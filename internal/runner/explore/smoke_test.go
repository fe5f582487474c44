package explore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

func TestSmoke(t *testing.T) {
	x, err := New(Options{CacheDir: "/tmp/exs"})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	p, err := checker.Load(nil, filepath.Join("../../../testdata/corpus/weather-maps"))
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range x.Plugin(context.Background(), p) {
		t.Logf("%s runs=%d complete=%v methods=%v", name, e.Runs, e.Complete, e.Methods)
		for _, f := range e.Fetches {
			t.Logf("   %s:%d:%d via %v %s dyn=%v in=%s", f.Site.File, f.Site.Line, f.Site.Col, f.Via, f.Host, f.Dynamic, f.Input)
		}
	}
}
